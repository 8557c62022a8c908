import {
  addDictionaryFromFileRoute,
  addDictionaryFromRulesRoute,
  type PronunciationRule,
} from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateDictionaries } from './dictionary-query-keys';

export type CreateDictionaryInput =
  | { source: 'rules'; name: string; description?: string; rules: PronunciationRule[] }
  | { source: 'file'; name: string; description?: string; file: File };

/** The multipart form of `add-from-file`: the name and description, then the lexicon. */
export function buildLexiconForm(input: { name: string; description?: string; file: File }): FormData {
  const form = new FormData();
  form.append('name', input.name);
  if (input.description) form.append('description', input.description);
  form.append('file', input.file, input.file.name);
  return form;
}

/** `add-from-rules` or `add-from-file` (a PLS lexicon). */
export function createDictionary(input: CreateDictionaryInput) {
  if (input.source === 'file')
    return apiRequest(addDictionaryFromFileRoute, { body: buildLexiconForm(input) });
  return apiRequest(addDictionaryFromRulesRoute, {
    body: { name: input.name, description: input.description || null, rules: input.rules },
  });
}

export function useCreateDictionary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDictionary,
    onSuccess: () => void invalidateDictionaries(queryClient),
  });
}
