import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject, redirect } from 'react-router';
import { listRedirects, type RouteSection } from '../lib/app-paths';
import { listPageRoutes, type PageLoader } from './page-loaders';
import { type PagePrefetch, pagePrefetches, prefetchWhenSignedIn } from './page-prefetches';
import type { RouteHandle } from './route-handle';
import { AppShell, RouteErrorPage, ShellFallback } from './shell/app-shell';

const notFoundPage: PageLoader = () => import('../routes/not-found-page');

/**
 * A route loading its page file on first visit. With a prefetch (and the app's query client), going to
 * the page also asks for its data as soon as the session has a token, while the file loads; the loader
 * itself waits for nothing.
 */
function toLazyRoute(
  path: string,
  title: string,
  page: PageLoader,
  section?: RouteSection,
  prefetch?: { run: PagePrefetch; queryClient: QueryClient },
): RouteObject {
  return {
    path,
    handle: { title, section } satisfies RouteHandle,
    lazy: async () => ({ Component: (await page()).default }),
    ...(prefetch && {
      loader: () => {
        prefetchWhenSignedIn(prefetch.run, prefetch.queryClient);
        return null;
      },
    }),
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
 * unbuilt /app pages included (no placeholder pages). Given the app's query client, the pages of
 * page-prefetches.ts ask for their data early.
 */
export function createAppRoutes(queryClient?: QueryClient): RouteObject[] {
  const prefetches: Readonly<Record<string, PagePrefetch | undefined>> = pagePrefetches;
  return [
    {
      Component: AppShell,
      HydrateFallback: ShellFallback,
      ErrorBoundary: RouteErrorPage,
      children: [
        ...listPageRoutes().map((entry) => {
          const run = prefetches[entry.path];
          return toLazyRoute(
            entry.path,
            entry.title,
            entry.page,
            entry.section,
            run && queryClient ? { run, queryClient } : undefined,
          );
        }),
        ...listRedirects().map((entry) => toRedirectRoute(entry.path, entry.redirectTo)),
        toLazyRoute('*', 'Page not found', notFoundPage),
      ],
    },
  ];
}

/** The browser router of the app, with the app's query client for the pages' early data. */
export function createAppRouter(queryClient?: QueryClient): ReturnType<typeof createBrowserRouter> {
  return createBrowserRouter(createAppRoutes(queryClient));
}
