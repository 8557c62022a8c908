import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { transcriptQueryKeys } from './transcript-query-keys';
import { getTranscriptRoute, type TranscriptResponse } from './types';

/**
 * `GET /v1/speech-to-text/transcripts/{id}` (the public API's call): the words of a completed transcript.
 * While it is processing the server answers 409 `transcript_not_ready`, once failed 422 `transcript_failed`.
 */
export function getTranscript(transcriptionId: string, signal?: AbortSignal): Promise<TranscriptResponse> {
  return apiRequest(getTranscriptRoute, { params: { transcription_id: transcriptionId }, signal });
}

export function transcriptQueryOptions(transcriptionId: string) {
  return queryOptions({
    queryKey: transcriptQueryKeys.transcript(transcriptionId),
    queryFn: ({ signal }) => getTranscript(transcriptionId, signal),
    // A completed transcript's words do not change (names live in its details).
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The words, asked for only once the details say the transcript is completed. */
export function useTranscript(transcriptionId: string, enabled: boolean) {
  return useQuery({ ...transcriptQueryOptions(transcriptionId), enabled });
}
