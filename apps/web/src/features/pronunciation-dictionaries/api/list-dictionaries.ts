import { listDictionariesRoute } from '@parla/contracts';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { dictionaryQueryKeys } from './dictionary-query-keys';

/** How many dictionaries one page of the list asks for. */
export const DICTIONARY_PAGE_SIZE = 30;

/** `GET /v1/pronunciation-dictionaries`: one page, by name. */
export function listDictionaries(includeArchived: boolean, cursor: string | undefined, signal?: AbortSignal) {
  return apiRequest(listDictionariesRoute, {
    query: {
      page_size: DICTIONARY_PAGE_SIZE,
      sort: 'name',
      sort_direction: 'asc',
      include_archived: includeArchived ? 'true' : 'false',
      cursor,
    },
    signal,
  });
}

export function dictionariesQueryOptions(includeArchived: boolean) {
  return infiniteQueryOptions({
    queryKey: dictionaryQueryKeys.list(includeArchived),
    queryFn: ({ pageParam, signal }) => listDictionaries(includeArchived, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  });
}

export function useDictionaries(includeArchived: boolean) {
  return useInfiniteQuery({
    ...dictionariesQueryOptions(includeArchived),
    placeholderData: keepPreviousData,
  });
}
