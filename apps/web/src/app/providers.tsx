import type { UserResponse } from '@parla/contracts';
import { TooltipProvider } from '@radix-ui/react-tooltip';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { RouterProvider } from 'react-router';
import { signOut } from '../features/auth/api/sign-out';
import { PlayerProvider } from '../features/player/player-provider';
import { WORKSPACE_LEFT_EVENT } from '../lib/api-client';
import { AuthProvider } from '../lib/auth/auth-provider';
import { signInPath } from '../lib/auth/sign-out';
import { userQueryKey } from '../lib/query-client';
import { getToastPosition } from '../lib/toasts/toast-rules';
import { ToastProvider } from '../ui/toast-provider';
import type { createAppRouter } from './router';
import { ThemeProvider } from './theme/theme-provider';

type AppRouter = ReturnType<typeof createAppRouter>;

/** Revokes this sign-in on the server and clears its httpOnly refresh cookie (accounts §4 sign-out). */
const endServerSession = async () => {
  await signOut();
};

/** Tooltip open delay (accounts §9). */
const tooltipDelayMs = 400;

/** The router's current path, for the providers that sit outside it (the toast position). */
function useRouterPathname(router: AppRouter): string {
  return useSyncExternalStore(
    router.subscribe,
    () => router.state.location.pathname,
    () => router.state.location.pathname,
  );
}

export interface ProvidersProps {
  router: AppRouter;
  queryClient: QueryClient;
}

/** Every app-wide provider around the router: data, theme, toasts, tooltips, sign-in state, the player. */
export function Providers({ router, queryClient }: ProvidersProps) {
  const pathname = useRouterPathname(router);
  const handleSignedOut = useCallback(() => {
    // Nothing fetched for the previous user may show to the next one.
    queryClient.clear();
    void router.navigate(signInPath, { replace: true });
  }, [queryClient, router]);
  // The session probe's user is the user query's data: the pages on sign-in read it without asking again.
  const handleUser = useCallback(
    (user: UserResponse) => queryClient.setQueryData(userQueryKey, user),
    [queryClient],
  );
  // Removed from the workspace worked in: nothing of it may stay on screen (lib/api-client refreshed the token).
  useEffect(() => {
    const leave = () => void queryClient.resetQueries();
    window.addEventListener(WORKSPACE_LEFT_EVENT, leave);
    return () => window.removeEventListener(WORKSPACE_LEFT_EVENT, leave);
  }, [queryClient]);

  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <ToastProvider position={getToastPosition(pathname)}>
          <TooltipProvider delayDuration={tooltipDelayMs}>
            <AuthProvider
              onSignedOut={handleSignedOut}
              endServerSession={endServerSession}
              onUser={handleUser}
            >
              <PlayerProvider>
                <RouterProvider router={router} />
              </PlayerProvider>
            </AuthProvider>
          </TooltipProvider>
        </ToastProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
