import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateTranscripts, transcriptQueryKeys } from './transcript-query-keys';
import { type TranscriptDetails, type UpdateTranscriptRequest, updateTranscriptRoute } from './types';

/** `PATCH /v1/speech-to-text/transcripts/{id}`: a new title, or new names for its speakers. */
export function updateTranscript(
  transcriptionId: string,
  changes: UpdateTranscriptRequest,
): Promise<TranscriptDetails> {
  return apiRequest(updateTranscriptRoute, { params: { transcription_id: transcriptionId }, body: changes });
}

/** Renames a transcript or its speakers; the answer becomes its details at once, and the lists reload. */
export function useUpdateTranscript(transcriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdateTranscriptRequest) => updateTranscript(transcriptionId, changes),
    onSuccess: (details) => {
      queryClient.setQueryData(transcriptQueryKeys.details(transcriptionId), details);
      void invalidateTranscripts(queryClient);
    },
  });
}
