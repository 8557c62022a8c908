import { updateKnowledgeBaseDocumentRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateKnowledgeBase } from './kb-query-keys';

export interface RenameDocumentInput {
  documentId: string;
  name: string;
}

/** `PATCH /v1/convai/knowledge-base/{id}` with a new name. */
export function renameDocument({ documentId, name }: RenameDocumentInput) {
  return apiRequest(updateKnowledgeBaseDocumentRoute, {
    params: { documentation_id: documentId },
    body: { name },
  });
}

export function useRenameDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameDocument,
    onSuccess: () => void invalidateKnowledgeBase(queryClient),
  });
}
