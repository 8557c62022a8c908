import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../../lib/api-upload';
import { invalidateTranscripts } from './transcript-query-keys';
import { createTranscriptRoute, type TimestampGranularity } from './types';

export interface CreateTranscriptInput {
  file: Blob;
  fileName: string;
  name: string;
  modelId: string;
  /** ISO 639-3; null lets the server detect it. */
  languageCode: string | null;
  diarize: boolean;
  /** null: the server finds how many speakers there are. */
  numSpeakers: number | null;
  tagAudioEvents: boolean;
  timestampsGranularity: TimestampGranularity;
  /** The upload's progress, 0–1. */
  onProgress?: (share: number) => void;
  signal?: AbortSignal;
}

/** The multipart form of `POST /v1/speech-to-text/transcripts`: the public call's fields and `name`. */
export function buildTranscriptForm(input: CreateTranscriptInput): FormData {
  const form = new FormData();
  form.append('model_id', input.modelId);
  form.append('name', input.name);
  if (input.languageCode) form.append('language_code', input.languageCode);
  form.append('diarize', String(input.diarize));
  if (input.diarize && input.numSpeakers !== null) form.append('num_speakers', String(input.numSpeakers));
  form.append('tag_audio_events', String(input.tagAudioEvents));
  form.append('timestamps_granularity', input.timestampsGranularity);
  // The file last: the server reads the fields before the body's largest part.
  form.append('file', input.file, input.fileName);
  return form;
}

/**
 * `POST /v1/speech-to-text/transcripts`: uploads a recording (with its progress) and starts its
 * transcription, which goes on on the server; the list shows it at once.
 */
export function createTranscript(input: CreateTranscriptInput) {
  return apiUpload(createTranscriptRoute, {
    body: buildTranscriptForm(input),
    onProgress: (sent, total) => input.onProgress?.(total > 0 ? sent / total : 0),
    ...(input.signal ? { signal: input.signal } : {}),
  });
}

export function useCreateTranscript() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTranscript,
    onSuccess: () => invalidateTranscripts(queryClient),
  });
}
