import { deleteVoiceRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateVoices } from './voice-query-keys';

/** `DELETE /v1/voices/{id}`: an own voice and its samples. */
export function deleteVoice(voiceId: string) {
  return apiRequest(deleteVoiceRoute, { params: { voice_id: voiceId } });
}

/** Deletes a voice; it leaves every voice list, the pickers' included. */
export function useDeleteVoice() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteVoice, onSuccess: () => invalidateVoices(queryClient) });
}
