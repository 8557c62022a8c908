import { createBrowserRouter, type RouteObject, redirect } from 'react-router';
import { listRedirects, type RouteSection } from '../lib/app-paths';
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

/** An old address of a moved page: on to the page's path, with the query it came with. */
function toRedirectRoute(path: string, to: string): RouteObject {
  return {
    path,
    loader: ({ request }) => redirect(`${to}${new URL(request.url).search}`),
  };
}

/**
 * The route objects: the shell around every built page (lib/app-paths.ts, each with its module from
 * page-loaders.ts), the old addresses of moved pages sent on, and "Page not found" for every other path,
 * unbuilt /app pages included (no placeholder pages).
 */
export function createAppRoutes(): RouteObject[] {
  return [
    {
      Component: AppShell,
      HydrateFallback: ShellFallback,
      ErrorBoundary: RouteErrorPage,
      children: [
        ...listPageRoutes().map((entry) => toLazyRoute(entry.path, entry.title, entry.page, entry.section)),
        ...listRedirects().map((entry) => toRedirectRoute(entry.path, entry.redirectTo)),
        toLazyRoute('*', 'Page not found', notFoundPage),
      ],
    },
  ];
}

/** The browser router of the app. */
export function createAppRouter(): ReturnType<typeof createBrowserRouter> {
  return createBrowserRouter(createAppRoutes());
}
