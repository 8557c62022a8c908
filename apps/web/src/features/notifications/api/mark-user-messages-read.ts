import {
  type ListUserMessagesResponse,
  markAllUserMessagesReadRoute,
  markUserMessageReadRoute,
} from '@parla/contracts';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { messagesQueryKey } from './list-user-messages';

/** `POST /v1/user/messages/{id}/read`. */
export function markUserMessageRead(messageId: string): Promise<{ status: 'ok' }> {
  return apiRequest(markUserMessageReadRoute, { params: { message_id: messageId } });
}

/** `POST /v1/user/messages/read-all`. */
export function markAllUserMessagesRead(): Promise<{ status: 'ok' }> {
  return apiRequest(markAllUserMessagesReadRoute);
}

/** Shows the messages read at once (one, or all when no id), then asks the server for the truth. */
function showRead(queryClient: QueryClient, messageId?: string) {
  queryClient.setQueryData<ListUserMessagesResponse>(messagesQueryKey, (data) => {
    if (!data) return data;
    const messages = data.messages.map((message) =>
      messageId === undefined || message.message_id === messageId
        ? { ...message, has_been_read: true }
        : message,
    );
    const newlyRead = data.messages.filter(
      (message, i) => !message.has_been_read && messages[i]?.has_been_read,
    ).length;
    return { messages, unread_count: Math.max(0, data.unread_count - newlyRead) };
  });
  void queryClient.invalidateQueries({ queryKey: messagesQueryKey });
}

export function useMarkUserMessageRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markUserMessageRead,
    onSuccess: (_answer, messageId) => showRead(queryClient, messageId),
  });
}

export function useMarkAllUserMessagesRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllUserMessagesRead,
    onSuccess: () => showRead(queryClient),
  });
}
