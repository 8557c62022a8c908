import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { TRANSCRIPT_POLL_MS } from '../stt-rules';
import { transcriptQueryKeys } from './transcript-query-keys';
import { getTranscriptDetailsRoute, type TranscriptDetails } from './types';

/** `GET /v1/speech-to-text/transcripts/{id}/details`: its state, title and speaker names. */
export function getTranscriptDetails(
  transcriptionId: string,
  signal?: AbortSignal,
): Promise<TranscriptDetails> {
  return apiRequest(getTranscriptDetailsRoute, { params: { transcription_id: transcriptionId }, signal });
}

export function transcriptDetailsQueryOptions(transcriptionId: string) {
  return queryOptions({
    queryKey: transcriptQueryKeys.details(transcriptionId),
    queryFn: ({ signal }) => getTranscriptDetails(transcriptionId, signal),
    // Polled while the transcript is being made, for its progress.
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? TRANSCRIPT_POLL_MS : false),
  });
}

export function useTranscriptDetails(transcriptionId: string) {
  return useQuery(transcriptDetailsQueryOptions(transcriptionId));
}
