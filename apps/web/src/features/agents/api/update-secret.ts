import { updateSecretRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateSecrets } from './agents-query-keys';

export interface UpdateSecretInput {
  secretId: string;
  name: string;
  value: string;
}

/** `PATCH /v1/convai/secrets/{id}`: renames the secret and replaces its value. */
export function updateSecret({ secretId, name, value }: UpdateSecretInput) {
  return apiRequest(updateSecretRoute, {
    params: { secret_id: secretId },
    body: { type: 'update', name, value },
  });
}

export function useUpdateSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSecret,
    onSuccess: () => {
      void invalidateSecrets(queryClient);
    },
  });
}
