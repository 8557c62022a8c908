import { getDictionaryRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { dictionaryQueryKeys } from './dictionary-query-keys';

/** `GET /v1/pronunciation-dictionaries/{id}`: the dictionary and its latest version's rules. */
export function getDictionary(id: string, signal?: AbortSignal) {
  return apiRequest(getDictionaryRoute, { params: { pronunciation_dictionary_id: id }, signal });
}

export function dictionaryQueryOptions(id: string) {
  return queryOptions({
    queryKey: dictionaryQueryKeys.dictionary(id),
    queryFn: ({ signal }) => getDictionary(id, signal),
  });
}

export function useDictionary(id: string | undefined) {
  return useQuery({ ...dictionaryQueryOptions(id ?? ''), enabled: Boolean(id) });
}
