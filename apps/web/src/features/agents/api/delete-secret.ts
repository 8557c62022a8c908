import { deleteSecretRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateSecrets } from './agents-query-keys';

/** `DELETE /v1/convai/secrets/{id}`: refused while a tool uses it. */
export function deleteSecret(secretId: string) {
  return apiRequest(deleteSecretRoute, { params: { secret_id: secretId } });
}

export function useDeleteSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSecret,
    onSuccess: () => {
      void invalidateSecrets(queryClient);
    },
  });
}
