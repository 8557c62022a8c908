import { pvcCaptchaRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { voiceQueryKeys } from './voice-query-keys';

/**
 * `GET /v1/voices/pvc/{id}/captcha`: a new sentence for the owner of an own voice to read aloud, valid
 * 10 minutes. Each call replaces the sentence the server expects.
 */
export function getVoiceCaptcha(voiceId: string) {
  return apiRequest(pvcCaptchaRoute, { params: { voice_id: voiceId } });
}

/**
 * Asked for once per opening of the verify dialog and never again by itself: a refetch (focus, reconnect,
 * a voice refresh) would silently replace the sentence the user is reading. `refetch` asks for a new one.
 * The request takes no abort signal: cancelling it when the dialog remounts (React's strict mode) would
 * ask twice, and the server could keep the first sentence while the dialog shows the second.
 */
export function voiceCaptchaQueryOptions(voiceId: string) {
  return queryOptions({
    queryKey: voiceQueryKeys.captcha(voiceId),
    queryFn: () => getVoiceCaptcha(voiceId),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

export function useVoiceCaptcha(voiceId: string) {
  return useQuery(voiceCaptchaQueryOptions(voiceId));
}
