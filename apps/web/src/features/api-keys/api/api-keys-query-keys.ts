import type { QueryClient } from '@tanstack/react-query';

export const apiKeysQueryKeys = {
  /** `GET /v1/user/api-keys`; under the user's key, so sign-out's cache clear takes it too. */
  list: ['users', 'me', 'api-keys'] as const,
};

/**
 * After a key changes: the keys and everything else under the user (the onboarding checklist counts a
 * created key). Not awaited by the callers, so a toast or a closing dialog does not wait for the refetch.
 */
export function invalidateApiKeys(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: ['users', 'me'] });
}
