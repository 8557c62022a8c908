import { voiceAccentsRoute } from '@parla/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { voiceQueryKeys } from './voice-query-keys';

/**
 * `GET /v1/voices/accents`: the accents of the library's voices, of one language when `language` is given
 * (an ISO 639-1 code), of every language otherwise.
 */
export function voiceAccentsQueryOptions(language: string) {
  const given = language.trim();
  return queryOptions({
    queryKey: voiceQueryKeys.libraryAccents(given),
    queryFn: ({ signal }) =>
      apiRequest(voiceAccentsRoute, { query: given ? { language: given } : {}, signal }),
  });
}

/** The library's accents for the language chosen; while another language's load, the last list stays. */
export function useVoiceAccents(language: string) {
  return useQuery({ ...voiceAccentsQueryOptions(language), placeholderData: keepPreviousData });
}
