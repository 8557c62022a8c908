import { getVoiceRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `GET /v1/voices/{voice_id}`: a speaker's voice by name (the resource names voices by id only). */
export function useVoiceName(voiceId: string | undefined) {
  return useQuery({
    queryKey: ['dubbing', 'voice-name', voiceId ?? ''],
    queryFn: ({ signal }) => apiRequest(getVoiceRoute, { params: { voice_id: voiceId ?? '' }, signal }),
    select: (voice) => voice.name,
    enabled: !!voiceId,
    staleTime: 5 * 60_000,
    retry: false,
  });
}
