import { getVoiceRoute, type VoiceResponse } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { trainingState } from '../pvc-rules';
import { voiceQueryKeys } from './voice-query-keys';

/** How often a professional clone in training is asked for again, to move its progress bar. */
export const TRAINING_POLL_MS = 2000;

/** `GET /v1/voices/{id}`: one voice, with its samples, verification and training state. */
export function getVoice(voiceId: string, signal?: AbortSignal) {
  return apiRequest(getVoiceRoute, { params: { voice_id: voiceId }, signal });
}

/** Whether a voice's training is queued or running, so its page keeps asking. */
const isTraining = (voice: VoiceResponse | undefined) =>
  voice !== undefined && ['queued', 'fine_tuning'].includes(trainingState(voice));

export function voiceQueryOptions(voiceId: string) {
  return queryOptions({
    queryKey: voiceQueryKeys.voice(voiceId),
    queryFn: ({ signal }) => getVoice(voiceId, signal),
    // A training runs as a job on the server: its state and progress are polled while it runs.
    refetchInterval: (query) => (isTraining(query.state.data) ? TRAINING_POLL_MS : false),
  });
}

/** One voice; polled while it trains. */
export function useVoice(voiceId: string | undefined) {
  return useQuery({ ...voiceQueryOptions(voiceId ?? ''), enabled: voiceId !== undefined });
}
