import { sharedVoiceLanguagesRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { voiceQueryKeys } from './voice-query-keys';

/**
 * `GET /v1/shared-voices/languages`: the languages the library's voices speak, each with its number of
 * voices; a language no shared voice speaks is not listed.
 */
export function libraryLanguagesQueryOptions() {
  return queryOptions({
    queryKey: voiceQueryKeys.libraryLanguages,
    queryFn: ({ signal }) => apiRequest(sharedVoiceLanguagesRoute, { signal }),
  });
}

/** The library's languages, for its language filter. */
export function useLibraryLanguages() {
  return useQuery(libraryLanguagesQueryOptions());
}
