import { editVoiceRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { buildVoiceForm, type VoiceFormInput } from './add-voice';
import { invalidateVoices } from './voice-query-keys';

/** `POST /v1/voices/{id}/edit`: name, description and labels replaced; new samples (if any) added. */
export function editVoice({ voiceId, ...input }: VoiceFormInput & { voiceId: string }) {
  return apiRequest(editVoiceRoute, { params: { voice_id: voiceId }, body: buildVoiceForm(input) });
}

export function useEditVoice() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: editVoice, onSuccess: () => invalidateVoices(queryClient) });
}
