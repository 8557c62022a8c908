import { designVoiceRoute } from '@parla/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /v1/text-to-voice/design`: three previews of the voice a description asks for, each with its
 * audio (base64) and the generated_voice_id that saves it. The server writes the sample text.
 */
export function designVoice(voiceDescription: string) {
  return apiRequest(designVoiceRoute, {
    body: { voice_description: voiceDescription.trim(), auto_generate_text: true },
  });
}

export function useDesignVoice() {
  return useMutation({ mutationFn: designVoice });
}
