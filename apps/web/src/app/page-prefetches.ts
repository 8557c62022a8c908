import type { QueryClient } from '@tanstack/react-query';
import { getSubscriptionQueryOptions } from '../features/billing/api/get-subscription';
import { latestGenerationsQueryOptions } from '../features/history';
import { getOnboardingChecklistQueryOptions } from '../features/onboarding/api/get-onboarding-checklist';
import { whenAccessToken } from '../lib/access-token';
import type { BuiltPath } from '../lib/app-paths';

/** Asks for what a page shows, with the same query options as the page, so the page finds them asked. */
export type PagePrefetch = (queryClient: QueryClient) => void;

/**
 * The data a page shows, asked for as soon as the session has a token: while the page's code, and the
 * session's user (`GET /v1/user`), are still loading, instead of one after the other once the page has
 * rendered (issue 26 item 7: Home's first visit ran its requests in a row). The router runs a page's
 * prefetch when it goes to the page (app/router.tsx).
 */
export const pagePrefetches: Readonly<Partial<Record<BuiltPath, PagePrefetch>>> = {
  // Home (routes/app-home-page.tsx): the latest generations, the credit meter, the onboarding checklist.
  '/app/home': (queryClient) => {
    void queryClient.prefetchQuery(latestGenerationsQueryOptions());
    void queryClient.prefetchQuery(getSubscriptionQueryOptions());
    void queryClient.prefetchQuery(getOnboardingChecklistQueryOptions());
  },
};

/** The wait of each prefetch for a token: a visitor going to the page again replaces it, not adds one. */
const waiting = new Map<PagePrefetch, () => void>();

/** Runs a page's prefetch once the session has a token (at once when it has one). */
export function prefetchWhenSignedIn(prefetch: PagePrefetch, queryClient: QueryClient): void {
  waiting.get(prefetch)?.();
  waiting.set(
    prefetch,
    whenAccessToken(() => {
      waiting.delete(prefetch);
      prefetch(queryClient);
    }),
  );
}
