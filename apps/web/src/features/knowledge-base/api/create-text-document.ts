import { type CreateTextDocumentRequest, createKnowledgeBaseTextRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateKnowledgeBase } from './kb-query-keys';

/** `POST /v1/convai/knowledge-base/text`: a document from pasted text; answers its id and name. */
export function createTextDocument(body: CreateTextDocumentRequest) {
  return apiRequest(createKnowledgeBaseTextRoute, { body });
}

export function useCreateTextDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTextDocument,
    onSuccess: () => void invalidateKnowledgeBase(queryClient),
  });
}
