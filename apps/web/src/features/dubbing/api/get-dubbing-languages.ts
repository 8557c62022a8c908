import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { dubbingQueryKeys } from './dubbing-query-keys';
import { dubbingLanguagesRoute } from './types';

/** `GET /v1/dubbing/languages`: the 29 languages and what this installation can do with each. */
export function getDubbingLanguages(signal?: AbortSignal) {
  return apiRequest(dubbingLanguagesRoute, { signal });
}

export function useDubbingLanguages() {
  return useQuery({
    queryKey: dubbingQueryKeys.languages,
    queryFn: ({ signal }) => getDubbingLanguages(signal),
    select: (answer) => answer.languages,
    // What the installation can do changes only with its configuration.
    staleTime: 5 * 60_000,
  });
}
