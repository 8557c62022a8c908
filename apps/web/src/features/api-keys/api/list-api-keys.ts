import { listApiKeysRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { apiKeysQueryKeys } from './api-keys-query-keys';

/** `GET /v1/user/api-keys` (accounts §7): the caller's keys, each with its preview only. */
export function listApiKeys(signal?: AbortSignal) {
  return apiRequest(listApiKeysRoute, { signal });
}

export function listApiKeysQueryOptions() {
  return queryOptions({
    queryKey: apiKeysQueryKeys.list,
    queryFn: ({ signal }) => listApiKeys(signal),
  });
}

export function useApiKeys() {
  return useQuery(listApiKeysQueryOptions());
}
