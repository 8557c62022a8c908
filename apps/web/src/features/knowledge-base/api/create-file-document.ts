import { createKnowledgeBaseFileRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateKnowledgeBase } from './kb-query-keys';

export interface CreateFileDocumentInput {
  file: File;
  /** The document's name; the server names it after the file when left out. */
  name?: string | undefined;
}

/** The multipart form of `POST /v1/convai/knowledge-base/file`: the name first, the file last. */
export function buildFileDocumentForm({ file, name }: CreateFileDocumentInput): FormData {
  const form = new FormData();
  if (name?.trim()) form.append('name', name.trim());
  form.append('file', file, file.name);
  return form;
}

/** `POST /v1/convai/knowledge-base/file`: a document from a pdf, docx, txt, html, md or epub file. */
export function createFileDocument(input: CreateFileDocumentInput) {
  return apiRequest(createKnowledgeBaseFileRoute, { body: buildFileDocumentForm(input) });
}

export function useCreateFileDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFileDocument,
    onSuccess: () => void invalidateKnowledgeBase(queryClient),
  });
}
