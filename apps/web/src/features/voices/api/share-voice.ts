import { type ShareVoiceBody, shareVoiceRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateVoices } from './voice-query-keys';

/** `POST /v1/voices/{id}/share`: shares an own voice in the library, or stops sharing it. */
export function shareVoice({ voiceId, ...body }: ShareVoiceBody & { voiceId: string }) {
  return apiRequest(shareVoiceRoute, { params: { voice_id: voiceId }, body });
}

/** Shares or unshares; the voice lists and the library load again. */
export function useShareVoice() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: shareVoice, onSuccess: () => invalidateVoices(queryClient) });
}
