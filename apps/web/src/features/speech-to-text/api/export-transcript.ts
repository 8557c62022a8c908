import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { readContentDispositionFileName } from '../../../lib/content-disposition';
import { saveBlob } from '../../../lib/save-file';
import { exportTranscriptRoute, type TranscriptExportFormat } from './types';

export interface ExportTranscriptInput {
  transcriptionId: string;
  format: TranscriptExportFormat;
  /** The name to save under when the server names none: the transcript's title. */
  fallbackName: string;
  includeSpeakers?: boolean;
  includeTimestamps?: boolean;
}

/** The file extension of each export format. */
const extensions: Record<TranscriptExportFormat, string> = {
  txt: 'txt',
  srt: 'srt',
  vtt: 'vtt',
  docx: 'docx',
  pdf: 'pdf',
  json: 'json',
  html: 'html',
  segmented_json: 'json',
};

/**
 * `GET /v1/speech-to-text/transcripts/{id}/export`: the transcript as a file (speaker names applied by the
 * server), saved under the name the server gives it.
 */
export async function exportTranscript({
  transcriptionId,
  format,
  fallbackName,
  includeSpeakers,
  includeTimestamps,
}: ExportTranscriptInput): Promise<string> {
  const response = await apiFetch(exportTranscriptRoute, {
    params: { transcription_id: transcriptionId },
    query: {
      format,
      ...(includeSpeakers === undefined ? {} : { include_speakers: includeSpeakers ? 'true' : 'false' }),
      ...(includeTimestamps === undefined
        ? {}
        : { include_timestamps: includeTimestamps ? 'true' : 'false' }),
    },
  });
  const blob = await response.blob();
  const fileName =
    readContentDispositionFileName(response.headers.get('content-disposition')) ??
    `${
      fallbackName
        .replace(/[^\p{L}\p{M}\p{N}_ .-]+/gu, '')
        .trim()
        .replace(/\s+/g, '_') || 'transcript'
    }.${extensions[format]}`;
  saveBlob(blob, fileName);
  return fileName;
}

export function useExportTranscript() {
  return useMutation({ mutationFn: exportTranscript });
}
