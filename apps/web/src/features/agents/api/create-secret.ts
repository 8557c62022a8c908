import { createSecretRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateSecrets } from './agents-query-keys';

export interface CreateSecretInput {
  name: string;
  value: string;
}

/** `POST /v1/convai/secrets`: stores the value encrypted; it is never shown again. */
export function createSecret({ name, value }: CreateSecretInput) {
  return apiRequest(createSecretRoute, { body: { type: 'new', name, value } });
}

export function useCreateSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSecret,
    onSuccess: () => {
      void invalidateSecrets(queryClient);
    },
  });
}
