import { z } from 'zod';
import { defineRoute } from './routes';
import { formBool } from './speech-to-speech';
import { findSttLanguage } from './stt-languages';

/*
 * Speech to text (issue 19): the public API's `POST /v1/speech-to-text` and transcripts, the private
 * endpoints of the `/app/speech-to-text` page, and OpenAI's `POST /v1/audio/transcriptions`. Shapes follow
 * `@elevenlabs/elevenlabs-js` (BodySpeechToTextV1SpeechToTextPost, SpeechToTextChunkResponseModel,
 * MultichannelSpeechToTextResponseModel, SpeechToTextWebhookResponseModel).
 */

/**
 * Which recogniser a model runs: the embedded fast or accurate English model, the embedded multilingual
 * one (Whisper base, issue 29), or the operator's server.
 */
export type SttModelKind = 'fast' | 'accurate' | 'multilingual' | 'external';

export interface SttModel {
  model_id: string;
  name: string;
  kind: SttModelKind;
  description: string;
}

export const DEFAULT_STT_MODEL_ID = 'parla_stt_v1';

/** The speech-to-text models. `parla_stt_external_v1` exists only when the operator set a server. */
export const STT_MODELS: readonly SttModel[] = [
  {
    model_id: 'parla_stt_v1',
    name: 'Parla Speech to Text v1',
    kind: 'fast',
    // Telephone audio (a source sampled at 8 kHz or less) is heard by the accurate recogniser: there the
    // fast one made about twice its word errors (docs/decisions/0017-telephone-speech.md).
    description:
      'The built-in English model: fast, offline, with word timestamps; telephone audio (8 kHz) is heard by the accurate model.',
  },
  {
    model_id: 'parla_stt_accurate_v1',
    name: 'Parla Speech to Text Accurate v1',
    kind: 'accurate',
    description: 'The larger built-in English model: fewer mistakes, about half the speed.',
  },
  {
    model_id: 'parla_stt_multilingual_v1',
    name: 'Parla Speech to Text Multilingual v1',
    kind: 'multilingual',
    // Whisper base (docs/decisions/0024-dubbing.md "Multilingual speech to text"): the languages of
    // STT_LANGUAGES, detected when no language_code is given.
    description:
      'The built-in multilingual model (Whisper base): 57 languages, detects the language when none is given; slower than the English models and weaker on rarer languages.',
  },
  {
    model_id: 'parla_stt_external_v1',
    name: 'Parla Speech to Text External v1',
    kind: 'external',
    description: "The operator's transcription server: the languages it knows.",
  },
];

/** The public API's model ids, accepted as the default model (clients written for it work unchanged). */
export const STT_MODEL_ALIASES: Readonly<Record<string, string>> = {
  scribe_v1: DEFAULT_STT_MODEL_ID,
  scribe_v1_experimental: DEFAULT_STT_MODEL_ID,
  scribe_v2: DEFAULT_STT_MODEL_ID,
};

/** OpenAI's transcription model names (`/v1/audio/transcriptions`), each run by the default model. */
export const OPENAI_STT_MODELS: Readonly<Record<string, string>> = {
  'whisper-1': DEFAULT_STT_MODEL_ID,
  'gpt-4o-transcribe': DEFAULT_STT_MODEL_ID,
  'gpt-4o-mini-transcribe': DEFAULT_STT_MODEL_ID,
};

/** A model by its id or an alias of it, or undefined. */
export function findSttModel(id: string): SttModel | undefined {
  const resolved = STT_MODEL_ALIASES[id] ?? id;
  return STT_MODELS.find((m) => m.model_id === resolved);
}

/** The largest upload: 1 GB (the public API takes up to 5 GB; one machine's disk and time bound ours). */
export const STT_MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;
/** The longest recording: 90 minutes, refused before any work when the file states more. */
export const STT_MAX_SECONDS = 90 * 60;
/** The shortest recording: 100 ms (the public API's minimum). */
export const STT_MIN_SECONDS = 0.1;
/** The public API's cap on `num_speakers`. */
export const STT_MAX_SPEAKERS = 32;
/** The public API's cap on channels with `use_multi_channel`. */
export const STT_MAX_CHANNELS = 5;
/** Parla's rate: 1 credit per started second of audio (docs/decisions/0013-speech-to-text-credits.md). */
export const STT_CREDITS_PER_SECOND = 1;

/** The credits of `seconds` of audio over `channels` channels: 1 per started second each, at least 1. */
export function speechToTextCost(seconds: number, channels = 1): number {
  return Math.max(1, Math.ceil(seconds - 1e-9) * STT_CREDITS_PER_SECOND * Math.max(1, channels));
}

/** The messages the server and the page share. */
export const sttMessages = {
  noInput: 'Send exactly one of file, cloud_storage_url or source_url.',
  bothInputs: 'Send exactly one of file, cloud_storage_url or source_url, not several.',
  tooShort: `The recording is shorter than ${STT_MIN_SECONDS * 1000} ms.`,
  tooLong: `The recording is longer than ${STT_MAX_SECONDS / 60} minutes, the most transcribed at once.`,
  tooLarge: `The file is larger than ${STT_MAX_UPLOAD_BYTES / 1024 / 1024 / 1024} GB.`,
  notReady: 'The transcript is still being made. Try again when its status is completed.',
  thresholdNeedsDiarize:
    'diarization_threshold can only be set when diarize is true and num_speakers is not.',
  webhookIdNeedsWebhook: 'webhook_id is only valid when webhook is true.',
  webhookMetadataNeedsWebhook: 'webhook_metadata is only valid when webhook is true.',
  combinedNeedsTimestamps:
    "multichannel_output_style 'combined' needs timestamps_granularity word or character.",
  externalUnavailable:
    'The model parla_stt_external_v1 needs a transcription server, and this server has none configured.',
} as const;

/** Export options of one additional format (the SDK's ExportOptions). */
const exportOptionFields = {
  include_speakers: z.boolean().default(true),
  include_timestamps: z.boolean().default(true),
  segment_on_silence_longer_than_s: z.number().min(0).max(3600).nullish(),
  max_segment_duration_s: z.number().min(0).max(3600).nullish(),
  max_segment_chars: z.number().int().min(1).max(100_000).nullish(),
};
const lineFields = { max_characters_per_line: z.number().int().min(1).max(1000).nullish() };

/** `includeSpeakers` → `include_speakers`: the official JS client sends these options with its own names. */
function snakeCaseKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]),
  );
}

/**
 * One entry of `additional_formats` (the SDK's ExportOptions union, by `format`). The JS client sends the
 * JSON with its camelCase names (`includeSpeakers`, `maxCharactersPerLine`): both spellings are read.
 */
const ExportOptionsUnion = z.discriminatedUnion('format', [
  z.object({ format: z.literal('srt'), ...exportOptionFields, ...lineFields }),
  z.object({ format: z.literal('txt'), ...exportOptionFields, ...lineFields }),
  z.object({ format: z.literal('segmented_json'), ...exportOptionFields }),
  z.object({ format: z.literal('docx'), ...exportOptionFields }),
  z.object({ format: z.literal('pdf'), ...exportOptionFields }),
  z.object({ format: z.literal('html'), ...exportOptionFields }),
]);
export const ExportOptions = z.preprocess(snakeCaseKeys, ExportOptionsUnion);
export type ExportOptions = z.infer<typeof ExportOptions>;

/** A multipart field that holds JSON, parsed and then checked by `schema`. */
function jsonField<S extends z.ZodType>(field: string, schema: S, maxLength: number) {
  return z
    .string()
    .max(maxLength)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: `${field} is not valid JSON.` });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

/**
 * Whether a JSON value nests deeper than `max` levels (an object or array adds one). It stops at `max`, so
 * a value 8,000 levels deep (16 KB holds that many) costs `max` frames, not a stack overflow.
 */
function nestsDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (max <= 0) return true;
  return Object.values(value as Record<string, unknown>).some((child) => nestsDeeperThan(child, max - 1));
}

/** `webhook_metadata`: a JSON object of at most 2 levels and 16 KB (the public API's rule). */
const WebhookMetadata = z
  .record(z.string(), z.unknown())
  .refine((v) => !nestsDeeperThan(v, 2), 'webhook_metadata may be at most 2 levels deep.');

const timestampsGranularities = ['none', 'word', 'character'] as const;

/**
 * The text fields of `POST /v1/speech-to-text` (multipart: besides the `file`). Multipart sends every field
 * as a string. Fields of the public API Parla does not do (entity detection, keyterms, transcript edits,
 * speaker roles) are refused rather than silently ignored.
 */
export const SpeechToTextFields = z
  .object({
    model_id: z.string().min(1).max(100),
    language_code: z
      .string()
      .max(10)
      .transform((v) => v.trim())
      .refine((v) => v === '' || findSttLanguage(v) !== undefined, {
        message: 'language_code must be an ISO 639-1 or ISO 639-3 code of a supported language.',
      })
      .transform((v) => (v === '' ? undefined : findSttLanguage(v)?.iso1))
      .optional(),
    tag_audio_events: formBool.default(true),
    num_speakers: z.coerce.number().int().min(1).max(STT_MAX_SPEAKERS).optional(),
    timestamps_granularity: z.enum(timestampsGranularities).default('word'),
    diarize: formBool.default(false),
    diarization_threshold: z.coerce.number().min(0.1).max(0.4).optional(),
    additional_formats: jsonField('additional_formats', z.array(ExportOptions).max(10), 8000).optional(),
    file_format: z.enum(['pcm_s16le_16', 'other']).default('other'),
    cloud_storage_url: z.string().max(2048).optional(),
    source_url: z.string().max(2048).optional(),
    webhook: formBool.default(false),
    webhook_id: z.string().min(1).max(100).optional(),
    temperature: z.coerce.number().min(0).max(2).optional(),
    seed: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
    use_multi_channel: formBool.default(false),
    multichannel_output_style: z.enum(['separate', 'combined']).default('separate'),
    webhook_metadata: jsonField('webhook_metadata', WebhookMetadata, 16 * 1024).optional(),
    /** The page's name for the transcript (private `POST /v1/speech-to-text/transcripts` only). */
    name: z.string().trim().min(1).max(200).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.diarization_threshold !== undefined && (!v.diarize || v.num_speakers !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['diarization_threshold'],
        message: sttMessages.thresholdNeedsDiarize,
      });
    if (v.webhook_id !== undefined && !v.webhook)
      ctx.addIssue({ code: 'custom', path: ['webhook_id'], message: sttMessages.webhookIdNeedsWebhook });
    if (v.webhook_metadata !== undefined && !v.webhook)
      ctx.addIssue({
        code: 'custom',
        path: ['webhook_metadata'],
        message: sttMessages.webhookMetadataNeedsWebhook,
      });
    if (
      v.use_multi_channel &&
      v.multichannel_output_style === 'combined' &&
      v.timestamps_granularity === 'none'
    )
      ctx.addIssue({
        code: 'custom',
        path: ['multichannel_output_style'],
        message: sttMessages.combinedNeedsTimestamps,
      });
  });
export type SpeechToTextFields = z.infer<typeof SpeechToTextFields>;

/** The public API's fields Parla does not do: refused by name (422), never silently ignored. */
export const STT_UNSUPPORTED_FIELDS = [
  'transcript_edit',
  'entity_detection',
  'entity_redaction',
  'entity_redaction_mode',
  'keyterms',
  'detect_speaker_roles',
  'use_speaker_library',
  'no_verbatim',
] as const;

export const SpeechToTextQuery = z.object({
  enable_logging: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});

export const SpeechToTextCharacter = z.object({ text: z.string(), start: z.number(), end: z.number() });

/** One entry of `words`: a word, the spacing between two words, or an audio event. */
export const SpeechToTextWord = z.object({
  text: z.string(),
  start: z.number(),
  end: z.number(),
  type: z.enum(['word', 'spacing', 'audio_event']),
  speaker_id: z.string().optional(),
  /** The embedded models give no log-probabilities: always 0 (docs/modules.md "speech-to-text"). */
  logprob: z.number(),
  characters: z.array(SpeechToTextCharacter).optional(),
  channel_index: z.number().int().optional(),
});
export type SpeechToTextWord = z.infer<typeof SpeechToTextWord>;

export const AdditionalFormatResponse = z.object({
  requested_format: z.string(),
  file_extension: z.string(),
  content_type: z.string(),
  is_base64_encoded: z.boolean(),
  content: z.string(),
});
export type AdditionalFormatResponse = z.infer<typeof AdditionalFormatResponse>;

/** The SDK's SpeechToTextChunkResponseModel. */
export const SpeechToTextChunk = z
  .object({
    language_code: z.string(),
    language_probability: z.number(),
    text: z.string(),
    words: z.array(SpeechToTextWord),
    channel_index: z.number().int().optional(),
    additional_formats: z.array(AdditionalFormatResponse).optional(),
    transcription_id: z.string().optional(),
    audio_duration_secs: z.number().optional(),
  })
  .meta({ id: 'SpeechToTextChunkResponseModel' });
export type SpeechToTextChunk = z.infer<typeof SpeechToTextChunk>;

/** The SDK's MultichannelSpeechToTextResponseModel. */
export const MultichannelSpeechToText = z
  .object({
    transcripts: z.array(SpeechToTextChunk),
    transcription_id: z.string().optional(),
    audio_duration_secs: z.number().optional(),
  })
  .meta({ id: 'MultichannelSpeechToTextResponseModel' });
export type MultichannelSpeechToText = z.infer<typeof MultichannelSpeechToText>;

/** A transcript as kept and sent: one chunk, or one per channel. */
export const WireTranscript = z.union([SpeechToTextChunk, MultichannelSpeechToText]);
export type WireTranscript = z.infer<typeof WireTranscript>;

/** The SDK's SpeechToTextWebhookResponseModel: the answer of `webhook=true`. */
export const SpeechToTextWebhookAck = z.object({
  message: z.string(),
  request_id: z.string(),
  transcription_id: z.string().optional(),
});

export const SpeechToTextResponse = z.union([
  SpeechToTextChunk,
  MultichannelSpeechToText,
  SpeechToTextWebhookAck,
]);

const transcriptParams = z.object({ transcription_id: z.string().max(100) });

/** `POST /v1/speech-to-text` (multipart, read by the handler). */
export const speechToTextRoute = defineRoute({
  method: 'POST',
  path: '/v1/speech-to-text',
  summary: 'Transcribe audio or video (multipart: file or cloud_storage_url, model_id, diarize…)',
  tags: ['speech-to-text'],
  query: SpeechToTextQuery,
  response: SpeechToTextResponse,
});

export const getTranscriptRoute = defineRoute({
  method: 'GET',
  path: '/v1/speech-to-text/transcripts/:transcription_id',
  summary: 'A transcript (409 while it is being made)',
  tags: ['speech-to-text'],
  params: transcriptParams,
  response: WireTranscript,
});

export const deleteTranscriptRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/speech-to-text/transcripts/:transcription_id',
  summary: 'Delete a transcript and its audio',
  tags: ['speech-to-text'],
  params: transcriptParams,
  response: z.object({ status: z.literal('ok') }),
});

export const TRANSCRIPT_STATUSES = ['processing', 'completed', 'failed'] as const;
export type TranscriptStatus = (typeof TRANSCRIPT_STATUSES)[number];

/** A transcript in the page's list. */
export const TranscriptListItem = z.object({
  transcription_id: z.string(),
  name: z.string(),
  status: z.enum(TRANSCRIPT_STATUSES),
  /** 0..1 while processing, 1 once completed. */
  progress: z.number().min(0).max(1),
  error: z.string().nullable(),
  language_code: z.string().nullable(),
  audio_duration_secs: z.number().nullable(),
  model_id: z.string(),
  created_at_unix: z.number().int(),
  created_by_name: z.string(),
});
export type TranscriptListItem = z.infer<typeof TranscriptListItem>;

/** A transcript's details: the list item and the names given to its speakers. */
export const TranscriptDetails = TranscriptListItem.extend({
  speaker_names: z.record(z.string(), z.string()),
});
export type TranscriptDetails = z.infer<typeof TranscriptDetails>;

export const ListTranscriptsQuery = z.object({
  page_size: z.coerce.number().int().min(1).max(100).default(30),
  /** The `next_cursor` of the page before. */
  cursor: z.string().max(200).optional(),
  search: z.string().max(200).optional(),
});
export type ListTranscriptsQuery = z.infer<typeof ListTranscriptsQuery>;

export const ListTranscriptsResponse = z.object({
  transcripts: z.array(TranscriptListItem),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});
export type ListTranscriptsResponse = z.infer<typeof ListTranscriptsResponse>;

export const CreateTranscriptResponse = z.object({
  transcription_id: z.string(),
  status: z.literal('processing'),
});

/** Speaker ids (`speaker_0`…) to the names a person gave them. */
const SpeakerNames = z
  .record(
    z.string().regex(/^speaker_\d{1,2}$/, 'speaker ids look like speaker_0'),
    z.string().trim().max(100),
  )
  .refine((v) => Object.keys(v).length <= STT_MAX_SPEAKERS, `At most ${STT_MAX_SPEAKERS} speakers.`);

export const UpdateTranscriptRequest = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  /** A name per speaker; an empty name goes back to the speaker's id. */
  speaker_names: SpeakerNames.optional(),
});
export type UpdateTranscriptRequest = z.infer<typeof UpdateTranscriptRequest>;

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

export const ExportTranscriptQuery = z.object({
  format: z.enum(TRANSCRIPT_EXPORT_FORMATS),
  include_speakers: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  include_timestamps: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});

/** `POST /v1/speech-to-text/transcripts` (private, multipart): an asynchronous transcription. */
export const createTranscriptRoute = defineRoute({
  method: 'POST',
  path: '/v1/speech-to-text/transcripts',
  summary: 'Start a transcription in the background (the page; multipart like POST /v1/speech-to-text)',
  tags: ['speech-to-text'],
  response: CreateTranscriptResponse,
  successStatus: 202,
});

export const listTranscriptsRoute = defineRoute({
  method: 'GET',
  path: '/v1/speech-to-text/transcripts',
  summary: "The workspace's transcripts, newest first",
  tags: ['speech-to-text'],
  query: ListTranscriptsQuery,
  response: ListTranscriptsResponse,
});

export const getTranscriptDetailsRoute = defineRoute({
  method: 'GET',
  path: '/v1/speech-to-text/transcripts/:transcription_id/details',
  summary: "A transcript's status, name and speaker names",
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

export const getTranscriptAudioRoute = defineRoute({
  method: 'GET',
  path: '/v1/speech-to-text/transcripts/:transcription_id/audio',
  summary: "A transcript's audio as MP3 (Range supported)",
  tags: ['speech-to-text'],
  params: transcriptParams,
  response: z.any().meta({ description: 'audio/mpeg' }),
});

export const exportTranscriptRoute = defineRoute({
  method: 'GET',
  path: '/v1/speech-to-text/transcripts/:transcription_id/export',
  summary: 'A transcript as a file (txt, srt, vtt, docx, pdf, json, html, segmented_json)',
  tags: ['speech-to-text'],
  params: transcriptParams,
  query: ExportTranscriptQuery,
  response: z.any().meta({ description: 'The file, as an attachment' }),
});

/** OpenAI's `response_format` for transcriptions. */
export const OPENAI_TRANSCRIPTION_FORMATS = ['json', 'text', 'srt', 'vtt', 'verbose_json'] as const;

/** The text fields of OpenAI's `POST /v1/audio/transcriptions` (multipart, besides `file`). */
export const OpenAiTranscriptionFields = z.object({
  model: z.string().min(1).max(100),
  language: z
    .string()
    .max(10)
    .refine(
      (v) => findSttLanguage(v) !== undefined,
      'language must be an ISO 639-1 code of a supported language.',
    )
    .transform((v) => findSttLanguage(v)?.iso1 ?? v)
    .optional(),
  /** Accepted and not used: the recogniser takes no prompt. */
  prompt: z.string().max(4000).optional(),
  response_format: z.enum(OPENAI_TRANSCRIPTION_FORMATS).default('json'),
  /** Accepted: the recogniser is deterministic. */
  temperature: z.coerce.number().min(0).max(1).optional(),
  /** `timestamp_granularities[]`, repeated; read by the handler into a list. */
  'timestamp_granularities[]': z.string().optional(),
  timestamp_granularities: z.string().optional(),
});
export type OpenAiTranscriptionFields = z.infer<typeof OpenAiTranscriptionFields>;

export const openAiTranscriptionRoute = defineRoute({
  method: 'POST',
  path: '/v1/audio/transcriptions',
  summary: 'OpenAI-compatible transcription (multipart: file, model, language, response_format…)',
  tags: ['speech-to-text'],
  response: z.any().meta({ description: 'json, verbose_json, text, srt or vtt' }),
});

/** `POST /v1/forced-alignment`'s multipart fields besides `file` (the SDK's `forcedAlignment.create`). */
export const ForcedAlignmentFields = z.object({
  text: z.string().trim().min(1, 'The text has no words to align.').max(100_000),
  enabled_spooled_file: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});
export type ForcedAlignmentFields = z.infer<typeof ForcedAlignmentFields>;

const AlignedTime = z.object({ text: z.string(), start: z.number(), end: z.number() });

/** `ForcedAlignmentResponseModel`: where each character and word of the text is, in seconds. */
export const ForcedAlignmentResponse = z.object({
  characters: z.array(AlignedTime),
  words: z.array(AlignedTime.extend({ loss: z.number() })),
  loss: z.number(),
});
export type ForcedAlignmentResponse = z.infer<typeof ForcedAlignmentResponse>;

/** Forced alignment is priced as transcription: 1 credit per started second of audio. */
export const forcedAlignmentRoute = defineRoute({
  method: 'POST',
  path: '/v1/forced-alignment',
  summary: 'Where each word and character of a known text is in a recording (multipart: file, text)',
  tags: ['speech-to-text'],
  response: ForcedAlignmentResponse,
});
