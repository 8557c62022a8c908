import { pvcSpeakersRoute, type SpeakerSeparation } from '@parla/contracts';
import { useQueries } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { voiceQueryKeys } from './voice-query-keys';

/** How often a running speaker separation is asked about. */
export const SEPARATION_POLL_MS = 1500;

/** `GET /v1/voices/pvc/{id}/samples/{sample_id}/speakers`: the separation's status and, once done, the speakers. */
export function getPvcSpeakers(voiceId: string, sampleId: string, signal?: AbortSignal) {
  return apiRequest(pvcSpeakersRoute, { params: { voice_id: voiceId, sample_id: sampleId }, signal });
}

export function pvcSpeakersQueryOptions(voiceId: string, sampleId: string) {
  return {
    queryKey: voiceQueryKeys.pvcSpeakers(voiceId, sampleId),
    queryFn: ({ signal }: { signal: AbortSignal }) => getPvcSpeakers(voiceId, sampleId, signal),
    refetchInterval: (query: { state: { data: SpeakerSeparation | undefined } }) =>
      query.state.data?.status === 'pending' ? SEPARATION_POLL_MS : false,
  };
}

/**
 * The separation of each of a voice's samples, polled while one runs; `separations` maps a sample id
 * to its separation once loaded.
 */
export function usePvcSeparations(voiceId: string, sampleIds: readonly string[]) {
  return useQueries({
    queries: sampleIds.map((sampleId) => pvcSpeakersQueryOptions(voiceId, sampleId)),
    combine: (results) => ({
      separations: Object.fromEntries(
        sampleIds.flatMap((id, index) => {
          const data = results[index]?.data;
          return data ? [[id, data]] : [];
        }),
      ) as Record<string, SpeakerSeparation>,
      results,
      pending: results.some((result) => result.isPending),
    }),
  });
}
