import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { dubbingQueryKeys } from './dubbing-query-keys';
import { dubbingSimilarVoicesRoute } from './types';

/** `GET /v1/dubbing/resource/{id}/speaker/{speaker_id}/similar-voices`: the voices nearest a speaker's. */
export function getSimilarVoices(dubbingId: string, speakerId: string, signal?: AbortSignal) {
  return apiRequest(dubbingSimilarVoicesRoute, {
    params: { dubbing_id: dubbingId, speaker_id: speakerId },
    signal,
  });
}

/** Asked only once the voice picker opens (`enabled`). */
export function useSimilarVoices(dubbingId: string, speakerId: string, enabled: boolean) {
  return useQuery({
    queryKey: dubbingQueryKeys.similarVoices(dubbingId, speakerId),
    queryFn: ({ signal }) => getSimilarVoices(dubbingId, speakerId, signal),
    select: (answer) => answer.voices,
    enabled,
  });
}
