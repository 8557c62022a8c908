import { updatePvcSampleRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { voiceQueryKeys } from './voice-query-keys';

export interface SelectPvcSpeakersInput {
  voiceId: string;
  sampleId: string;
  speakerIds: readonly string[];
}

/** `POST /v1/voices/pvc/{id}/samples/{sample_id}` with `selected_speaker_ids`: the speakers that are the voice. */
export function selectPvcSpeakers({ voiceId, sampleId, speakerIds }: SelectPvcSpeakersInput) {
  return apiRequest(updatePvcSampleRoute, {
    params: { voice_id: voiceId, sample_id: sampleId },
    body: { selected_speaker_ids: [...speakerIds] },
  });
}

export function useSelectPvcSpeakers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: selectPvcSpeakers,
    onSuccess: (_answer, { voiceId, sampleId }) =>
      queryClient.invalidateQueries({ queryKey: voiceQueryKeys.pvcSpeakers(voiceId, sampleId) }),
  });
}
