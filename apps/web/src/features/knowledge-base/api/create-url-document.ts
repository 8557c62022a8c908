import { type CreateUrlDocumentRequest, createKnowledgeBaseUrlRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateKnowledgeBase } from './kb-query-keys';

/**
 * `POST /v1/convai/knowledge-base/url`: the server reads the page (public hosts only, unless the operator
 * allows a private one) and keeps its text; answers the new document's id and name.
 */
export function createUrlDocument(body: CreateUrlDocumentRequest) {
  return apiRequest(createKnowledgeBaseUrlRoute, { body });
}

export function useCreateUrlDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUrlDocument,
    onSuccess: () => void invalidateKnowledgeBase(queryClient),
  });
}
