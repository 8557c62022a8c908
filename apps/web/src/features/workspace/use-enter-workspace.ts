import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { RefreshUnavailableError, refreshAccessToken } from '../../lib/session-refresh';

/**
 * After the server moved the caller into another workspace (an accepted invitation, a switch): forces an
 * access-token refresh, whose new token names that workspace (accounts §4), then drops every cached answer
 * so nothing of the previous workspace shows and the pages on screen fetch again. Rejects when the token
 * could not be refreshed.
 */
export function useEnterWorkspace(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const token = await refreshAccessToken();
    if (!token) throw new RefreshUnavailableError('Your session ended. Please sign in again.');
    // Not awaited: the pages refetch on their own time; the caller moves on (toast, navigation).
    void queryClient.resetQueries();
  }, [queryClient]);
}
