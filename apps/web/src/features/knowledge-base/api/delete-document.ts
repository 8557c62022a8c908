import { deleteKnowledgeBaseDocumentRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateKnowledgeBase, kbQueryKeys } from './kb-query-keys';

export interface DeleteDocumentInput {
  documentId: string;
  /** Delete it although agents use it (they lose it); without it the server refuses a document in use. */
  force: boolean;
}

/** `DELETE /v1/convai/knowledge-base/{id}`. */
export function deleteDocument({ documentId, force }: DeleteDocumentInput) {
  return apiRequest(deleteKnowledgeBaseDocumentRoute, {
    params: { documentation_id: documentId },
    query: force ? { force: 'true' } : {},
  });
}

export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDocument,
    onSuccess: (_answer, { documentId }) => {
      queryClient.removeQueries({ queryKey: kbQueryKeys.document(documentId) });
      void invalidateKnowledgeBase(queryClient);
    },
  });
}
