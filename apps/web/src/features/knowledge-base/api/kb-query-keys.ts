import type { KbDocumentType } from '@parla/contracts';
import type { QueryClient } from '@tanstack/react-query';

/** Under the current workspace's key (`['workspace']`): switching workspaces or signing out clears them. */
export const kbQueryKeys = {
  all: ['workspace', 'knowledge-base'] as const,
  list: (search: string, type: KbDocumentType | null) =>
    ['workspace', 'knowledge-base', 'list', { search, type }] as const,
  document: (id: string) => ['workspace', 'knowledge-base', 'document', id] as const,
  chunks: (id: string) => ['workspace', 'knowledge-base', 'document', id, 'chunks'] as const,
  ragIndexes: (id: string) => ['workspace', 'knowledge-base', 'document', id, 'rag-index'] as const,
  overview: ['workspace', 'knowledge-base', 'overview'] as const,
};

/** After a document is added, renamed or deleted: the list, the documents and the totals load again. */
export function invalidateKnowledgeBase(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: kbQueryKeys.all });
}
