import { createDesignedVoiceRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateVoices } from './voice-query-keys';

export interface CreateDesignedVoiceInput {
  name: string;
  description: string;
  generatedVoiceId: string;
  /** The previews listened to but not chosen (the public API's played_not_selected_voice_ids). */
  playedNotSelected: string[];
}

/** `POST /v1/text-to-voice`: a design preview saved as a voice. */
export function createDesignedVoice({
  name,
  description,
  generatedVoiceId,
  playedNotSelected,
}: CreateDesignedVoiceInput) {
  return apiRequest(createDesignedVoiceRoute, {
    body: {
      voice_name: name.trim(),
      voice_description: description.trim(),
      generated_voice_id: generatedVoiceId,
      played_not_selected_voice_ids:
        playedNotSelected.length > 0 ? playedNotSelected.slice(0, 10) : undefined,
    },
  });
}

export function useCreateDesignedVoice() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createDesignedVoice, onSuccess: () => invalidateVoices(queryClient) });
}
