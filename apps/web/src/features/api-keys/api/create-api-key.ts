import { createApiKeyRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateApiKeys } from './api-keys-query-keys';

/** `POST /v1/user/api-keys` (accounts §7): the new key, in this answer only (`xi_api_key`). */
export function createApiKey(body: { name: string; character_limit?: number | null }) {
  return apiRequest(createApiKeyRoute, { body });
}

/** createApiKey as a mutation; the keys load again. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => {
      void invalidateApiKeys(queryClient);
    },
  });
}
