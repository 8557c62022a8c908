import { conversationFeedbackRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateConversations } from './conversations-query-keys';

export interface ConversationFeedbackInput {
  conversationId: string;
  /** Like, dislike, or null to take it back. */
  feedback: 'like' | 'dislike' | null;
}

/** `POST /v1/convai/conversations/{id}/feedback`. */
export function sendConversationFeedback({ conversationId, feedback }: ConversationFeedbackInput) {
  return apiRequest(conversationFeedbackRoute, {
    params: { conversation_id: conversationId },
    body: { feedback },
  });
}

export function useSendConversationFeedback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendConversationFeedback,
    onSuccess: () => void invalidateConversations(queryClient),
  });
}
