import type { ApiKeyResponse } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../lib/toasts/use-toast';
import { invalidateApiKeys } from './api/api-keys-query-keys';
import { editApiKey } from './api/edit-api-key';

/**
 * Turns a key off, or on again, and says so in a toast. The toasts sit on the mutation itself, not on one
 * `mutate` call, so turning two keys quickly toasts both.
 */
export function useToggleApiKey() {
  const queryClient = useQueryClient();
  const { toast, toastError } = useToast();
  return useMutation({
    mutationFn: (key: ApiKeyResponse) =>
      editApiKey({ keyId: key.key_id, body: { is_disabled: !key.is_disabled } }),
    onSuccess: (key) => {
      toast({
        title: key.is_disabled ? `"${key.name}" is off.` : `"${key.name}" is on again.`,
        variant: 'success',
      });
      void invalidateApiKeys(queryClient);
    },
    onError: toastError,
  });
}
