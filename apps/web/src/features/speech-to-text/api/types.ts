import { defineRoute } from '@parla/contracts';
import { z } from 'zod';

/*
 * The shapes of the speech-to-text endpoints the page calls (issue 19, "Shared facts"): the public API's
 * transcript (`SpeechToTextChunkResponseModel` and its multichannel form, from the `.d.ts` and
 * `serialization/` of @elevenlabs/elevenlabs-js) and the private transcript-list endpoints of the
 * transcription page. They belong in `packages/contracts/src/speech-to-text.ts`, which the speech-to-text
 * API writes; until it lands they are declared here, with the same names, so the switch is an import.
 * (The language list already comes from the contracts: `stt-languages.ts`.)
 */

/** The model ids (issue 19): the built-in fast and accurate English models, and an operator's server. */
export const STT_MODEL_IDS = {
  fast: 'parla_stt_v1',
  accurate: 'parla_stt_accurate_v1',
  external: 'parla_stt_external_v1',
} as const;

/** `timestamps_granularity` of `POST /v1/speech-to-text`. */
export const TIMESTAMP_GRANULARITIES = ['word', 'character', 'none'] as const;
export type TimestampGranularity = (typeof TIMESTAMP_GRANULARITIES)[number];

/** The most speakers `num_speakers` takes (the public API's bound). */
export const MAX_SPEAKERS = 32;

/** The largest upload the page sends (issue 19: 1 GB; the server checks again, by content). */
export const TRANSCRIPTION_MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

const seconds = z.number().nullish();

/** One character of a word with its time (`SpeechToTextCharacterResponseModel`). */
export const TranscriptCharacter = z.object({ text: z.string(), start: seconds, end: seconds });

/** One word, space or sound (`SpeechToTextWordResponseModel`). */
export const TranscriptWord = z.object({
  text: z.string(),
  start: seconds,
  end: seconds,
  type: z.enum(['word', 'spacing', 'audio_event']),
  speaker_id: z.string().nullish(),
  logprob: z.number().nullish(),
  characters: z.array(TranscriptCharacter).nullish(),
  channel_index: z.number().nullish(),
});
export type TranscriptWord = z.infer<typeof TranscriptWord>;

/** A transcript of one channel (`SpeechToTextChunkResponseModel`). */
export const TranscriptChunk = z.object({
  language_code: z.string(),
  language_probability: z.number(),
  text: z.string(),
  words: z.array(TranscriptWord),
  channel_index: z.number().nullish(),
  transcription_id: z.string().nullish(),
  audio_duration_secs: z.number().nullish(),
});
export type TranscriptChunk = z.infer<typeof TranscriptChunk>;

/** The multichannel form (`MultichannelSpeechToTextResponseModel`): one transcript per channel. */
export const MultichannelTranscript = z.object({
  transcripts: z.array(TranscriptChunk),
  transcription_id: z.string().nullish(),
  audio_duration_secs: z.number().nullish(),
});
export type MultichannelTranscript = z.infer<typeof MultichannelTranscript>;

/** `GET /v1/speech-to-text/transcripts/{id}`: either form. */
export const TranscriptResponse = z.union([MultichannelTranscript, TranscriptChunk]);
export type TranscriptResponse = z.infer<typeof TranscriptResponse>;

export const TRANSCRIPT_STATUSES = ['processing', 'completed', 'failed'] as const;
export type TranscriptStatus = (typeof TRANSCRIPT_STATUSES)[number];

/** One transcript of the workspace as the page lists it. */
export const TranscriptListItem = z.object({
  transcription_id: z.string(),
  name: z.string(),
  status: z.enum(TRANSCRIPT_STATUSES),
  /** 0..1 while processing. */
  progress: z.number(),
  error: z.string().nullable(),
  language_code: z.string().nullable(),
  audio_duration_secs: z.number().nullable(),
  model_id: z.string(),
  created_at_unix: z.number(),
  created_by_name: z.string().nullish(),
});
export type TranscriptListItem = z.infer<typeof TranscriptListItem>;

export const ListTranscriptsResponse = z.object({
  transcripts: z.array(TranscriptListItem),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});
export type ListTranscriptsResponse = z.infer<typeof ListTranscriptsResponse>;

/** A transcript's details: the list item and the names given to its speakers (`speaker_0` → "Alice"). */
export const TranscriptDetails = TranscriptListItem.extend({
  speaker_names: z.record(z.string(), z.string()),
});
export type TranscriptDetails = z.infer<typeof TranscriptDetails>;

/** What the page may change: the title and the speakers' names (an empty name restores the default). */
export const UpdateTranscriptRequest = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  speaker_names: z.record(z.string(), z.string().max(100)).optional(),
});
export type UpdateTranscriptRequest = z.infer<typeof UpdateTranscriptRequest>;

/** The export formats of `GET …/transcripts/{id}/export`; the page offers the first six. */
export const TRANSCRIPT_EXPORT_FORMATS = [
  'txt',
  'srt',
  'vtt',
  'docx',
  'pdf',
  'json',
  'html',
  'segmented_json',
] as const;
export type TranscriptExportFormat = (typeof TRANSCRIPT_EXPORT_FORMATS)[number];

const transcriptParams = z.object({ transcription_id: z.string() });

export const createTranscriptRoute = defineRoute({
  method: 'POST',
  path: '/v1/speech-to-text/transcripts',
  summary:
    'Start a transcription kept in the workspace (multipart, the fields of POST /v1/speech-to-text, name)',
  tags: ['speech-to-text'],
  response: z.object({ transcription_id: z.string(), status: z.literal('processing') }),
  successStatus: 202,
});

export const listTranscriptsRoute = defineRoute({
  method: 'GET',
  path: '/v1/speech-to-text/transcripts',
  summary: "The workspace's transcripts, newest first",
  tags: ['speech-to-text'],
  query: z.object({
    page_size: z.number().int().optional(),
    cursor: z.string().optional(),
    search: z.string().optional(),
  }),
  response: ListTranscriptsResponse,
});

export const getTranscriptRoute = defineRoute({
  method: 'GET',
  path: '/v1/speech-to-text/transcripts/:transcription_id',
  summary: 'A completed transcript',
  tags: ['speech-to-text'],
  params: transcriptParams,
  response: TranscriptResponse,
});

export const getTranscriptDetailsRoute = defineRoute({
  method: 'GET',
  path: '/v1/speech-to-text/transcripts/:transcription_id/details',
  summary: "A transcript's state, title and speaker names",
  tags: ['speech-to-text'],
  params: transcriptParams,
  response: TranscriptDetails,
});

export const updateTranscriptRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/speech-to-text/transcripts/:transcription_id',
  summary: 'Rename a transcript or its speakers',
  tags: ['speech-to-text'],
  params: transcriptParams,
  body: UpdateTranscriptRequest,
  response: TranscriptDetails,
});

export const deleteTranscriptRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/speech-to-text/transcripts/:transcription_id',
  summary: 'Delete a transcript and its audio',
  tags: ['speech-to-text'],
  params: transcriptParams,
  response: z.unknown(),
});

export const getTranscriptAudioRoute = defineRoute({
  method: 'GET',
  path: '/v1/speech-to-text/transcripts/:transcription_id/audio',
  summary: "A transcript's audio (mp3)",
  tags: ['speech-to-text'],
  params: transcriptParams,
  response: z.unknown(),
});

export const exportTranscriptRoute = defineRoute({
  method: 'GET',
  path: '/v1/speech-to-text/transcripts/:transcription_id/export',
  summary: 'A transcript as a file',
  tags: ['speech-to-text'],
  params: transcriptParams,
  query: z.object({
    format: z.enum(TRANSCRIPT_EXPORT_FORMATS),
    include_speakers: z.boolean().optional(),
    include_timestamps: z.boolean().optional(),
  }),
  response: z.unknown(),
});
