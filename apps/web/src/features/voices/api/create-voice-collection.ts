import { createCollectionRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { voiceQueryKeys } from './voice-query-keys';

/** `POST /v1/voices/collections`: a new, empty collection. */
export function createVoiceCollection(name: string) {
  return apiRequest(createCollectionRoute, { body: { name: name.trim() } });
}

export function useCreateVoiceCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createVoiceCollection,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: voiceQueryKeys.collections }),
  });
}
