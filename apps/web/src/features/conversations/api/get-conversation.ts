import { type ConversationDetail, getConversationRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { conversationsQueryKeys } from './conversations-query-keys';

/** While a conversation is still being written (it is live, or its recording is being kept): look again. */
const UNFINISHED_POLL_MS = 3000;

/** `GET /v1/convai/conversations/{id}`: the transcript with times and tool calls, metadata, analysis. */
export function getConversation(conversationId: string, signal?: AbortSignal) {
  return apiRequest(getConversationRoute, { params: { conversation_id: conversationId }, signal });
}

export function conversationQueryOptions(conversationId: string) {
  return queryOptions({
    queryKey: conversationsQueryKeys.detail(conversationId),
    queryFn: ({ signal }) => getConversation(conversationId, signal),
    refetchInterval: (query) => (isUnfinished(query.state.data) ? UNFINISHED_POLL_MS : false),
  });
}

function isUnfinished(conversation: ConversationDetail | undefined): boolean {
  return (
    conversation?.status === 'initiated' ||
    conversation?.status === 'in-progress' ||
    conversation?.status === 'processing'
  );
}

export function useConversation(conversationId: string) {
  return useQuery(conversationQueryOptions(conversationId));
}
