import { trainPvcRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateVoices } from './voice-query-keys';

/** `POST /v1/voices/pvc/{id}/train`: a verified clone with enough audio is queued for training. */
export function trainPvc(voiceId: string) {
  return apiRequest(trainPvcRoute, { params: { voice_id: voiceId }, body: {} });
}

/** Starts the training; the voice (polled while it trains) and the lists load again. */
export function useTrainPvc() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: trainPvc, onSuccess: () => invalidateVoices(queryClient) });
}
