import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateDub } from './dubbing-query-keys';
import { updateSpeakerRoute } from './types';

export interface UpdateSpeakerInput {
  speakerId: string;
  speakerName?: string;
  voiceId?: string;
  /** The languages the new voice is for; all when absent. */
  languages?: string[];
}

/** `PATCH /v1/dubbing/resource/{id}/speaker/{speaker_id}`: rename a speaker or change its voice. */
export function updateSpeaker(
  dubbingId: string,
  { speakerId, speakerName, voiceId, languages }: UpdateSpeakerInput,
) {
  return apiRequest(updateSpeakerRoute, {
    params: { dubbing_id: dubbingId, speaker_id: speakerId },
    body: {
      ...(speakerName !== undefined ? { speaker_name: speakerName } : {}),
      ...(voiceId !== undefined ? { voice_id: voiceId } : {}),
      ...(languages ? { languages } : {}),
    },
  });
}

export function useUpdateSpeaker(dubbingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateSpeakerInput) => updateSpeaker(dubbingId, input),
    onSettled: () => invalidateDub(queryClient, dubbingId),
  });
}
