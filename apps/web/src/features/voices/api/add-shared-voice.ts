import { addSharedVoiceRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateVoices } from './voice-query-keys';

export interface AddSharedVoiceInput {
  publicUserId: string;
  voiceId: string;
  newName: string;
}

/** `POST /v1/voices/add/{public_user_id}/{voice_id}`: a library voice copied into the workspace's voices. */
export function addSharedVoice({ publicUserId, voiceId, newName }: AddSharedVoiceInput) {
  return apiRequest(addSharedVoiceRoute, {
    params: { public_user_id: publicUserId, voice_id: voiceId },
    body: { new_name: newName.trim() },
  });
}

/** Adds a library voice; the library (its "Added" marks), the voice lists and the pickers load again. */
export function useAddSharedVoice() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addSharedVoice, onSuccess: () => invalidateVoices(queryClient) });
}
