import { createBrowserRouter, type RouteObject } from 'react-router';
import {
  listBuiltRoutes,
  type PageLoader,
  type RouteEntry,
  type RouteSection,
  routeTable,
} from './route-table';
import { AppShell, RouteErrorPage, ShellFallback } from './shell/app-shell';

/** What a route tells the shell: the document title of its page, and its product area (the frame). */
export interface RouteHandle {
  title: string;
  /** Absent on "Page not found", whose frame follows the path. */
  section?: RouteSection;
}

const notFoundPage: PageLoader = () => import('../routes/not-found-page');

/** A route loading its page file on first visit. */
function toLazyRoute(path: string, title: string, page: PageLoader, section?: RouteSection): RouteObject {
  return {
    path,
    handle: { title, section } satisfies RouteHandle,
    lazy: async () => ({ Component: (await page()).default }),
  };
}

/**
 * The route objects: the shell around every built page of the route table, and "Page not found" for
 * every other path, unbuilt /app pages included (no placeholder pages).
 */
export function createAppRoutes(table: readonly RouteEntry[] = routeTable): RouteObject[] {
  return [
    {
      Component: AppShell,
      HydrateFallback: ShellFallback,
      ErrorBoundary: RouteErrorPage,
      children: [
        ...listBuiltRoutes(table).map((entry) =>
          toLazyRoute(entry.path, entry.title, entry.page, entry.section),
        ),
        toLazyRoute('*', 'Page not found', notFoundPage),
      ],
    },
  ];
}

/** The browser router of the app. */
export function createAppRouter(): ReturnType<typeof createBrowserRouter> {
  return createBrowserRouter(createAppRoutes());
}
