import { type ListUserMessagesResponse, listUserMessagesRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** How often the bell asks for new messages while the page is visible: a minute is news enough. */
export const messagesPollIntervalMs = 60_000;

/** Under the user's key, so sign-out (which clears the cache) drops them and a user refresh refreshes them. */
export const messagesQueryKey = ['users', 'me', 'messages'] as const;

/** `GET /v1/user/messages`: the user's newest messages and the unread count. */
export function listUserMessages(signal?: AbortSignal): Promise<ListUserMessagesResponse> {
  return apiRequest(listUserMessagesRoute, { signal });
}

export function listUserMessagesQueryOptions() {
  return queryOptions({
    queryKey: messagesQueryKey,
    queryFn: ({ signal }) => listUserMessages(signal),
    refetchInterval: messagesPollIntervalMs,
  });
}

/** The bell's messages, polled while `enabled` (signed in). */
export function useUserMessages(enabled: boolean) {
  return useQuery({ ...listUserMessagesQueryOptions(), enabled });
}
