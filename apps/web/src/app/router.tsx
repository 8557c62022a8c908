import { createBrowserRouter, type RouteObject } from 'react-router';
import type { RouteSection } from '../lib/app-paths';
import { listPageRoutes, type PageLoader } from './page-loaders';
import type { RouteHandle } from './route-handle';
import { AppShell, RouteErrorPage, ShellFallback } from './shell/app-shell';

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
 * The route objects: the shell around every built page (lib/app-paths.ts, each with its module from
 * page-loaders.ts), and "Page not found" for every other path, unbuilt /app pages included (no placeholder
 * pages).
 */
export function createAppRoutes(): RouteObject[] {
  return [
    {
      Component: AppShell,
      HydrateFallback: ShellFallback,
      ErrorBoundary: RouteErrorPage,
      children: [
        ...listPageRoutes().map((entry) => toLazyRoute(entry.path, entry.title, entry.page, entry.section)),
        toLazyRoute('*', 'Page not found', notFoundPage),
      ],
    },
  ];
}

/** The browser router of the app. */
export function createAppRouter(): ReturnType<typeof createBrowserRouter> {
  return createBrowserRouter(createAppRoutes());
}
