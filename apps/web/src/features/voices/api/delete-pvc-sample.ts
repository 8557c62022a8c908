import { deletePvcSampleRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateVoices } from './voice-query-keys';

/** `DELETE /v1/voices/pvc/{id}/samples/{sample_id}`. */
export function deletePvcSample({ voiceId, sampleId }: { voiceId: string; sampleId: string }) {
  return apiRequest(deletePvcSampleRoute, { params: { voice_id: voiceId, sample_id: sampleId } });
}

export function useDeletePvcSample() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deletePvcSample, onSuccess: () => invalidateVoices(queryClient) });
}
