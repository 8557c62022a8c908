import { QueryClient } from '@tanstack/react-query';
import { isHttpError, unknownErrorType } from './http-error';

/** How many times a failed request is tried again when a retry can help. */
const maxRetries = 2;

/**
 * Whether TanStack Query should try a failed request again: never for a 4xx (the same request gets the
 * same answer) or an unreadable body; up to twice for network failures and 5xx.
 */
export function shouldRetryRequest(failureCount: number, error: unknown): boolean {
  if (isHttpError(error)) {
    if (error.status >= 400 && error.status < 500) return false;
    if (error.errorType === unknownErrorType) return false;
  }
  return failureCount < maxRetries;
}

/**
 * The signed-in user's query (`GET /v1/user`): its key lives here, below the features and the sign-in
 * state, because both fill it: the session probe (lib/auth) answers with the user, which the app keeps under
 * this key (app/providers.tsx), and features/users reads it, so a page shown on sign-in does not ask again.
 */
export const userQueryKey = ['users', 'me'] as const;

/** The app's query client: no retry on 4xx, data fresh for 30 s (so focus refetches only stale data). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetryRequest,
        staleTime: 30_000,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
