import type { QueryClient } from '@tanstack/react-query';

/** What the history filters by (`GET /v1/convai/conversations` query). */
export interface ConversationFilters {
  agentId?: string | undefined;
  /** Started at or after, unix seconds. */
  after?: number | undefined;
  /** Started before, unix seconds. */
  before?: number | undefined;
}

/** Under the current workspace's key (`['workspace']`): switching workspaces or signing out clears them. */
export const conversationsQueryKeys = {
  all: ['workspace', 'conversations'] as const,
  list: (filters: ConversationFilters) =>
    [
      'workspace',
      'conversations',
      'list',
      { agentId: filters.agentId ?? null, after: filters.after ?? null, before: filters.before ?? null },
    ] as const,
  detail: (id: string) => ['workspace', 'conversations', 'detail', id] as const,
  agents: ['workspace', 'conversations', 'agents'] as const,
};

/** After a conversation is deleted or rated: the list and the conversation load again. */
export function invalidateConversations(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: conversationsQueryKeys.all });
}
