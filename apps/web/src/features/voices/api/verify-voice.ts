import { verifyPvcCaptchaRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateVoices } from './voice-query-keys';

export interface VerifyVoiceInput {
  voiceId: string;
  /** The captcha sentence read aloud: a browser recording or a chosen audio file. */
  recording: Blob;
  fileName: string;
}

/**
 * `POST /v1/voices/pvc/{id}/captcha` (multipart `recording`): the server checks that the recording says
 * the sentence and sounds like the voice's samples; a pass verifies the voice. A failure is a 400 whose
 * message says why.
 */
export function verifyVoice({ voiceId, recording, fileName }: VerifyVoiceInput) {
  const form = new FormData();
  form.append('recording', recording, fileName);
  return apiRequest(verifyPvcCaptchaRoute, { params: { voice_id: voiceId }, body: form });
}

/** Verifies a voice; the voice lists (and the pickers) load again to show it usable. */
export function useVerifyVoice() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: verifyVoice, onSuccess: () => invalidateVoices(queryClient) });
}
