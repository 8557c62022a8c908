import type { TranscriptDetails, TranscriptListItem, WireTranscript } from '@parla/contracts';
import type { TranscriptRow } from './speech-to-text.tables';

/** A transcript row as the page's list shows it. */
export function toTranscriptListItem(row: TranscriptRow, creatorName: string | null): TranscriptListItem {
  return {
    transcription_id: row.id,
    name: row.name,
    status: row.status,
    progress: row.status === 'completed' ? 1 : Math.min(1, Math.max(0, row.progress)),
    error: row.status === 'failed' ? (row.error ?? 'The transcription failed.') : null,
    language_code: row.languageCode,
    audio_duration_secs: row.durationSecs,
    model_id: row.modelId,
    created_at_unix: Math.floor(row.createdAt.getTime() / 1000),
    created_by_name: creatorName ?? 'A former member',
  };
}

export function toTranscriptDetails(row: TranscriptRow, creatorName: string | null): TranscriptDetails {
  return { ...toTranscriptListItem(row, creatorName), speaker_names: row.speakerNames };
}

/** The public API's transcript as kept, with its id and duration (and additional formats when made). */
export function toWireTranscript(row: TranscriptRow & { transcript: WireTranscript }): WireTranscript {
  return {
    ...row.transcript,
    transcription_id: row.id,
    ...(row.durationSecs === null ? {} : { audio_duration_secs: row.durationSecs }),
  };
}
