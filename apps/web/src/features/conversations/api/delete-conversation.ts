import { deleteConversationRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { conversationsQueryKeys, invalidateConversations } from './conversations-query-keys';

/** `DELETE /v1/convai/conversations/{id}`: the conversation with its transcript and recording. */
export function deleteConversation(conversationId: string) {
  return apiRequest(deleteConversationRoute, { params: { conversation_id: conversationId } });
}

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConversation,
    onSuccess: (_answer, conversationId) => {
      queryClient.removeQueries({ queryKey: conversationsQueryKeys.detail(conversationId) });
      void invalidateConversations(queryClient);
    },
  });
}
