import { deleteApiKeyRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateApiKeys } from './api-keys-query-keys';

/** `DELETE /v1/user/api-keys/{key_id}` (accounts §7): calls with the key fail from now on. */
export function deleteApiKey(keyId: string) {
  return apiRequest(deleteApiKeyRoute, { params: { key_id: keyId } });
}

/** deleteApiKey as a mutation; the keys load again. */
export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApiKey,
    onSuccess: () => {
      void invalidateApiKeys(queryClient);
    },
  });
}
