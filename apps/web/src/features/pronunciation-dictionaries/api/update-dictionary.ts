import { updateDictionaryRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateDictionaries } from './dictionary-query-keys';

export interface UpdateDictionaryInput {
  id: string;
  name?: string;
  archived?: boolean;
}

/** `PATCH /v1/pronunciation-dictionaries/{id}`: rename, archive or bring back. */
export function updateDictionary({ id, ...change }: UpdateDictionaryInput) {
  return apiRequest(updateDictionaryRoute, { params: { pronunciation_dictionary_id: id }, body: change });
}

export function useUpdateDictionary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDictionary,
    onSuccess: () => void invalidateDictionaries(queryClient),
  });
}
