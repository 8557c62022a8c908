/*
 * The speech-to-text endpoints and shapes the page calls, from the contracts
 * (`packages/contracts/src/speech-to-text.ts`), under the names the page's code uses.
 */
export {
  createTranscriptRoute,
  deleteTranscriptRoute,
  exportTranscriptRoute,
  getTranscriptAudioRoute,
  getTranscriptDetailsRoute,
  getTranscriptRoute,
  ListTranscriptsResponse,
  listTranscriptsRoute,
  MultichannelSpeechToText as MultichannelTranscript,
  SpeechToTextChunk as TranscriptChunk,
  SpeechToTextWord as TranscriptWord,
  STT_MAX_SPEAKERS as MAX_SPEAKERS,
  STT_MAX_UPLOAD_BYTES as TRANSCRIPTION_MAX_UPLOAD_BYTES,
  TRANSCRIPT_EXPORT_FORMATS,
  TRANSCRIPT_STATUSES,
  TranscriptDetails,
  type TranscriptExportFormat,
  TranscriptListItem,
  type TranscriptStatus,
  UpdateTranscriptRequest,
  updateTranscriptRoute,
  WireTranscript as TranscriptResponse,
} from '@parla/contracts';

/**
 * The model ids (issue 19): the built-in fast and accurate English models, the built-in multilingual one
 * (issue 29), and an operator's server.
 */
export const STT_MODEL_IDS = {
  fast: 'parla_stt_v1',
  accurate: 'parla_stt_accurate_v1',
  multilingual: 'parla_stt_multilingual_v1',
  external: 'parla_stt_external_v1',
} as const;

/** `timestamps_granularity` of `POST /v1/speech-to-text`. */
export const TIMESTAMP_GRANULARITIES = ['word', 'character', 'none'] as const;
export type TimestampGranularity = (typeof TIMESTAMP_GRANULARITIES)[number];
