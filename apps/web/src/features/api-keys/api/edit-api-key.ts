import { type ApiKeyResponse, editApiKeyRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateApiKeys } from './api-keys-query-keys';

export interface EditApiKeyInput {
  keyId: string;
  body: { name?: string; character_limit?: number | null; is_disabled?: boolean };
}

/** `POST /v1/user/api-keys/{key_id}/edit` (accounts §7): renames a key, sets its limit, turns it off or on. */
export function editApiKey({ keyId, body }: EditApiKeyInput): Promise<ApiKeyResponse> {
  return apiRequest(editApiKeyRoute, { params: { key_id: keyId }, body });
}

/** editApiKey as a mutation; the keys load again. */
export function useEditApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editApiKey,
    onSuccess: () => {
      void invalidateApiKeys(queryClient);
    },
  });
}
