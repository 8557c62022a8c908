import {
  getWorkspaceDictionariesRoute,
  type PronunciationDictionaryLocator,
  setWorkspaceDictionariesRoute,
} from '@parla/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { dictionaryQueryKeys } from './dictionary-query-keys';

/** `GET /v1/workspace/pronunciation-dictionaries`: what a request naming none uses. */
export function defaultDictionariesQueryOptions() {
  return queryOptions({
    queryKey: dictionaryQueryKeys.defaults,
    queryFn: ({ signal }) => apiRequest(getWorkspaceDictionariesRoute, { signal }),
  });
}

export function useDefaultDictionaries() {
  return useQuery(defaultDictionariesQueryOptions());
}

/** `PUT /v1/workspace/pronunciation-dictionaries`: at most three, in order. */
export function useSetDefaultDictionaries() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (locators: PronunciationDictionaryLocator[]) =>
      apiRequest(setWorkspaceDictionariesRoute, { body: { pronunciation_dictionary_locators: locators } }),
    onSuccess: (answer) => queryClient.setQueryData(dictionaryQueryKeys.defaults, answer),
  });
}
