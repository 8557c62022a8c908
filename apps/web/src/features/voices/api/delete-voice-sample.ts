import { deleteVoiceSampleRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateVoices } from './voice-query-keys';

/** `DELETE /v1/voices/{id}/samples/{sample_id}`: the voice is measured again from the samples left. */
export function deleteVoiceSample({ voiceId, sampleId }: { voiceId: string; sampleId: string }) {
  return apiRequest(deleteVoiceSampleRoute, { params: { voice_id: voiceId, sample_id: sampleId } });
}

export function useDeleteVoiceSample() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteVoiceSample, onSuccess: () => invalidateVoices(queryClient) });
}
