import { separateSpeakersRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { voiceQueryKeys } from './voice-query-keys';

/** `POST …/samples/{sample_id}/separate-speakers`: starts the job; `…/speakers` says when it is done. */
export function separateSpeakers({ voiceId, sampleId }: { voiceId: string; sampleId: string }) {
  return apiRequest(separateSpeakersRoute, { params: { voice_id: voiceId, sample_id: sampleId } });
}

/** Starts a separation; the sample's separation is asked for again (and polled while pending). */
export function useSeparateSpeakers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: separateSpeakers,
    onSuccess: (_answer, { voiceId, sampleId }) =>
      queryClient.invalidateQueries({ queryKey: voiceQueryKeys.pvcSpeakers(voiceId, sampleId) }),
  });
}
