import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { transcriptQueryKeys } from './transcript-query-keys';
import { deleteTranscriptRoute } from './types';

/** `DELETE /v1/speech-to-text/transcripts/{id}` (the public API's call): the transcript and its audio go. */
export async function deleteTranscript(transcriptionId: string): Promise<void> {
  await apiRequest(deleteTranscriptRoute, { params: { transcription_id: transcriptionId } });
}

export function useDeleteTranscript() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTranscript,
    onSuccess: (_answer, transcriptionId) => {
      queryClient.removeQueries({ queryKey: transcriptQueryKeys.details(transcriptionId) });
      queryClient.removeQueries({ queryKey: transcriptQueryKeys.transcript(transcriptionId) });
      void queryClient.invalidateQueries({ queryKey: transcriptQueryKeys.lists });
    },
  });
}
