import { listSecretsRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { agentsQueryKeys } from './agents-query-keys';

/** `GET /v1/convai/secrets`: the workspace's secrets, names and uses only (a workspace keeps few). */
export function listSecrets(signal?: AbortSignal) {
  return apiRequest(listSecretsRoute, { query: { page_size: 100 }, signal });
}

export function listSecretsQueryOptions() {
  return queryOptions({
    queryKey: agentsQueryKeys.secrets,
    queryFn: ({ signal }) => listSecrets(signal),
  });
}

export function useSecrets() {
  return useQuery(listSecretsQueryOptions());
}
