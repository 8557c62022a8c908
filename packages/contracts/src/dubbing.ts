import { z } from 'zod';
import { DubbingLanguageCapability } from './dubbing-languages';
import { defineRoute } from './routes';
import { formBool } from './speech-to-speech';

/*
 * Dubbing (issue 29; history/voices §3 "Dubbing", §5 uploads, §9 29 languages; accounts §2 `/app/dubbing`).
 * The calls and shapes follow `dubbing` of `@elevenlabs/elevenlabs-js`: the core calls (create, list, get,
 * delete, audio and transcripts per language) and the editor's `resource` calls (`/v1/dubbing/resource/…`,
 * every mutation answering the resource's new `version`). Wire names are snake_case.
 */

/** A dub's status (`DubbingMetadataResponse.status`). */
export const DUBBING_STATUSES = ['dubbing', 'dubbed', 'failed'] as const;
export type DubbingStatus = (typeof DUBBING_STATUSES)[number];

/** The stages a dub goes through, in order (the job resumes at the first one not done). */
export const DUBBING_STAGES = [
  'queued',
  'preparing',
  'transcribing',
  'translating',
  'speaking',
  'mixing',
  'done',
] as const;
export type DubbingStage = (typeof DUBBING_STAGES)[number];

/** What a dub costs: credits per minute of source per target language (el-facts §1: watermarked is 2/3). */
export const DUBBING_CREDITS_PER_MINUTE = 1000;
export const DUBBING_WATERMARK_CREDITS_PER_MINUTE = 660;
/** The largest upload (the public API's 1 GB) and the longest source: 45 minutes (the product's own page limit), as the mix holds a language's whole track in memory (48 kHz mono floats: 518 MB for 45 minutes). */
export const DUBBING_MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;
export const DUBBING_MAX_SECONDS = 45 * 60;
/** Speakers the automatic detection may find (`num_speakers` 0 = detect). */
export const DUBBING_MAX_SPEAKERS = 9;
/** Target languages a dub may have in all (the first and those added in the editor). */
export const DUBBING_MAX_LANGUAGES = 10;

/** The credits a dub of `seconds` into `languages` target languages costs. */
export function dubbingCredits(seconds: number, languages: number, watermark: boolean): number {
  const perMinute = watermark ? DUBBING_WATERMARK_CREDITS_PER_MINUTE : DUBBING_CREDITS_PER_MINUTE;
  return Math.max(1, Math.ceil((Math.ceil(Math.max(0, seconds)) * perMinute) / 60)) * languages;
}

const languageCode = z
  .string()
  .trim()
  .toLowerCase()
  .min(2, 'A language is a code like "es".')
  .max(10, 'A language is a code like "es".')
  .regex(/^[a-z]{2,3}(-[a-z0-9]{2,4})?$/, 'A language is a code like "es" or "pt-br".');

const seconds = z.coerce.number().min(0).max(DUBBING_MAX_SECONDS);

/**
 * The text fields of `POST /v1/dubbing` (multipart, besides `file`, `csv_file`, `foreground_audio_file` and
 * `background_audio_file`): BodyDubAVideoOrAnAudioFileV1DubbingPost. Multipart sends every field as a string.
 */
export const CreateDubbingFields = z
  .object({
    name: z.string().trim().max(200).optional(),
    source_url: z.string().trim().max(2048).optional(),
    source_lang: z.union([z.literal('auto'), languageCode]).default('auto'),
    target_lang: languageCode.optional(),
    target_accent: z.string().trim().max(50).optional(),
    num_speakers: z.coerce.number().int().min(0).max(DUBBING_MAX_SPEAKERS).default(0),
    watermark: formBool.default(false),
    start_time: seconds.optional(),
    end_time: seconds.optional(),
    highest_resolution: formBool.default(false),
    drop_background_audio: formBool.default(false),
    use_profanity_filter: formBool.default(false),
    dubbing_studio: formBool.default(false),
    disable_voice_cloning: formBool.default(false),
    mode: z.enum(['automatic', 'manual']).default('automatic'),
    csv_fps: z.coerce.number().min(1).max(240).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.start_time !== undefined && v.end_time !== undefined && v.end_time <= v.start_time)
      ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'end_time must be after start_time.' });
    if (v.mode === 'automatic' && !v.target_lang)
      ctx.addIssue({ code: 'custom', path: ['target_lang'], message: 'Choose the language to dub into.' });
    if (v.target_lang && v.source_lang !== 'auto' && v.target_lang === v.source_lang)
      ctx.addIssue({
        code: 'custom',
        path: ['target_lang'],
        message: 'The target language must differ from the source language.',
      });
  });
export type CreateDubbingFields = z.infer<typeof CreateDubbingFields>;

/** `DoDubbingResponse`. */
export const CreateDubbingResponse = z.object({
  dubbing_id: z.string(),
  expected_duration_sec: z.number(),
});
export type CreateDubbingResponse = z.infer<typeof CreateDubbingResponse>;

/** `DubbingMetadataResponse`, with the spec's entity fields Parla also reports (history/voices §3). */
export const DubbingMetadata = z.object({
  dubbing_id: z.string(),
  name: z.string(),
  status: z.enum(DUBBING_STATUSES),
  source_language: z.string().optional(),
  target_languages: z.array(z.string()),
  editable: z.boolean(),
  created_at: z.string(),
  media_metadata: z.object({ content_type: z.string(), duration: z.number() }).optional(),
  error: z.string().optional(),
  // history/voices §3's Dubbing entity:
  creation_date_unix: z.number().int(),
  expected_duration: z.number(),
  refunded: z.boolean(),
  /** 0..1. */
  progress: z.number(),
  progress_message: z.string().nullable(),
  stage: z.enum(DUBBING_STAGES),
  /** Credits charged (0 once refunded). */
  usage: z.object({ credits: z.number().int(), source_seconds: z.number() }),
  /** `video` or `audio`. */
  input: z.object({ kind: z.enum(['audio', 'video']), file_name: z.string().nullable() }),
  /** How each target language is made here: the translation route and the voices' engine. */
  targets: z.array(
    z.object({
      language: z.string(),
      translation: z.string().nullable(),
      status: z.enum(['dubbing', 'dubbed', 'failed']),
    }),
  ),
});
export type DubbingMetadata = z.infer<typeof DubbingMetadata>;

/** `GET /v1/dubbing` query (DubbingListRequest). */
export const ListDubbingQuery = z.object({
  cursor: z.string().max(200).optional(),
  page_size: z.coerce.number().int().min(1).max(200).default(100),
  dubbing_status: z.enum(DUBBING_STATUSES).optional(),
  filter_by_creator: z.enum(['personal', 'others', 'all']).default('all'),
  order_by: z.literal('created_at').default('created_at'),
  order_direction: z.enum(['DESCENDING', 'ASCENDING']).default('DESCENDING'),
});
export type ListDubbingQuery = z.infer<typeof ListDubbingQuery>;

/** `DubbingMetadataPageResponseModel`. */
export const ListDubbingResponse = z.object({
  dubs: z.array(DubbingMetadata),
  next_cursor: z.string().nullable(),
  has_more: z.boolean(),
});
export type ListDubbingResponse = z.infer<typeof ListDubbingResponse>;

// ---- The editor's resource (`DubbingResource` and its parts) ---------------------------------------------

/** `DubbingMediaReference`: a file of the dub, with the URL this server serves it at. */
export const DubbingMediaReference = z.object({
  src: z.string(),
  content_type: z.string(),
  bucket_name: z.string(),
  random_path_slug: z.string(),
  duration_secs: z.number(),
  is_audio: z.boolean(),
  url: z.string(),
});
export type DubbingMediaReference = z.infer<typeof DubbingMediaReference>;

/** `SegmentSubtitleFrame`. */
export const SegmentSubtitleFrame = z.object({
  start_time: z.number(),
  end_time: z.number(),
  lines: z.array(z.string()),
});

/** `DubbedSegment`: a segment in one target language. */
export const DubbedSegment = z.object({
  start_time: z.number(),
  end_time: z.number(),
  text: z.string().optional(),
  subtitles: z.array(SegmentSubtitleFrame),
  audio_stale: z.boolean(),
  media_ref: DubbingMediaReference.optional(),
});
export type DubbedSegment = z.infer<typeof DubbedSegment>;

/** `SpeakerSegment`. */
export const SpeakerSegment = z.object({
  id: z.string(),
  start_time: z.number(),
  end_time: z.number(),
  text: z.string(),
  subtitles: z.array(SegmentSubtitleFrame),
  dubs: z.record(z.string(), DubbedSegment),
});
export type SpeakerSegment = z.infer<typeof SpeakerSegment>;

/** `SpeakerTrack`: one speaker, its voices per language and its segments in time order. */
export const SpeakerTrack = z.object({
  id: z.string(),
  media_ref: DubbingMediaReference,
  speaker_name: z.string(),
  voices: z.record(z.string(), z.string()),
  segments: z.array(z.string()),
});
export type SpeakerTrack = z.infer<typeof SpeakerTrack>;

export const RENDER_TYPES = ['mp4', 'aac', 'mp3', 'wav', 'aaf', 'tracks_zip', 'clips_zip', 'zip'] as const;
export type RenderType = (typeof RENDER_TYPES)[number];

/** `Render`. */
export const DubbingRender = z.object({
  id: z.string(),
  version: z.number().int(),
  language: z.string().optional(),
  type: z.enum(RENDER_TYPES).optional(),
  media_ref: DubbingMediaReference.optional(),
  status: z.enum(['complete', 'processing', 'failed']),
});
export type DubbingRender = z.infer<typeof DubbingRender>;

/** `DubbingResource`. */
export const DubbingResource = z.object({
  id: z.string(),
  version: z.number().int(),
  source_language: z.string(),
  target_languages: z.array(z.string()),
  input: DubbingMediaReference,
  background: DubbingMediaReference.optional(),
  foreground: DubbingMediaReference.optional(),
  speaker_tracks: z.record(z.string(), SpeakerTrack),
  speaker_segments: z.record(z.string(), SpeakerSegment),
  renders: z.record(z.string(), DubbingRender),
});
export type DubbingResource = z.infer<typeof DubbingResource>;

const segmentIds = z.array(z.string().min(1).max(100)).max(5000);
const languages = z.array(languageCode).max(DUBBING_MAX_LANGUAGES);

export const TranscribeSegmentsBody = z.object({ segments: segmentIds });
export const TranslateSegmentsBody = z.object({ segments: segmentIds, languages: languages.nullish() });
export const DubSegmentsBody = z.object({ segments: segmentIds, languages: languages.nullish() });
export const RenderBody = z.object({
  render_type: z.enum(RENDER_TYPES),
  normalize_volume: z.boolean().nullish(),
});
export const AddLanguageBody = z.object({ language: languageCode });
export const MigrateSegmentsBody = z.object({
  segment_ids: segmentIds.min(1),
  speaker_id: z.string().min(1).max(100),
});
export const UpdateSegmentBody = z
  .object({
    start_time: z.number().min(0).max(DUBBING_MAX_SECONDS).nullish(),
    end_time: z.number().min(0).max(DUBBING_MAX_SECONDS).nullish(),
    text: z.string().max(5000).nullish(),
  })
  .refine((v) => v.start_time == null || v.end_time == null || v.end_time > v.start_time, {
    message: 'end_time must be after start_time.',
    path: ['end_time'],
  });
const voiceTuning = {
  speaker_name: z.string().trim().min(1).max(100).nullish(),
  voice_id: z.string().min(1).max(100).nullish(),
  voice_stability: z.number().min(0).max(1).nullish(),
  voice_similarity: z.number().min(0).max(1).nullish(),
  voice_style: z.number().min(0).max(1).nullish(),
};
export const CreateSpeakerBody = z.object(voiceTuning);
export const UpdateSpeakerBody = z.object({ ...voiceTuning, languages: languages.nullish() });
export const CreateSegmentBody = z
  .object({
    start_time: z.number().min(0).max(DUBBING_MAX_SECONDS),
    end_time: z.number().min(0).max(DUBBING_MAX_SECONDS),
    text: z.string().max(5000).nullish(),
    translations: z.record(z.string(), z.string().max(5000)).nullish(),
  })
  .refine((v) => v.end_time > v.start_time, {
    message: 'end_time must be after start_time.',
    path: ['end_time'],
  });

export const VersionResponse = z.object({ version: z.number().int() });
export const RenderResponse = z.object({ version: z.number().int(), render_id: z.string() });
export const SpeakerCreatedResponse = z.object({ version: z.number().int(), speaker_id: z.string() });
export const SegmentCreatedResponse = z.object({ version: z.number().int(), new_segment: z.string() });
export const SimilarVoicesResponse = z.object({
  voices: z.array(
    z.object({
      voice_id: z.string(),
      name: z.string(),
      category: z.string(),
      description: z.string().nullable().optional(),
      preview_url: z.string().nullable().optional(),
    }),
  ),
});

// ---- Transcripts ---------------------------------------------------------------------------------------

export const DUBBING_TRANSCRIPT_FORMATS = ['srt', 'webvtt', 'json'] as const;
export type DubbingTranscriptFormat = (typeof DUBBING_TRANSCRIPT_FORMATS)[number];

/** `DubbingTranscript` (the json format). */
export const DubbingTranscript = z.object({
  language: z.string(),
  utterances: z.array(
    z.object({
      text: z.string(),
      speaker_id: z.string(),
      start_s: z.number(),
      end_s: z.number(),
      words: z.array(
        z.object({
          text: z.string(),
          word_type: z.string(),
          start_s: z.number(),
          end_s: z.number(),
          characters: z.array(z.object({ text: z.string(), start_s: z.number(), end_s: z.number() })),
        }),
      ),
    }),
  ),
});
export type DubbingTranscript = z.infer<typeof DubbingTranscript>;

export const DubbingTranscriptsResponse = z.object({
  transcript_format: z.enum(DUBBING_TRANSCRIPT_FORMATS),
  srt: z.string().nullable().optional(),
  webvtt: z.string().nullable().optional(),
  json: DubbingTranscript.nullable().optional(),
});

// ---- Routes ---------------------------------------------------------------------------------------------

const tags = ['dubbing'] as const;
const dubParams = z.object({ dubbing_id: z.string().min(1).max(100) });
const dubLanguageParams = dubParams.extend({ language_code: z.string().min(1).max(10) });

export const createDubbingRoute = defineRoute({
  method: 'POST',
  path: '/v1/dubbing',
  summary: 'Dub a video or an audio file (multipart: file or source_url, target_lang, source_lang…)',
  tags,
  response: CreateDubbingResponse,
});

export const listDubbingRoute = defineRoute({
  method: 'GET',
  path: '/v1/dubbing',
  summary: 'The workspace’s dubs, newest first, a page at a time',
  tags,
  query: ListDubbingQuery,
  response: ListDubbingResponse,
});

/** One of the 29 languages, with what this installation can do with it (private: the new-dub dialog). */
export const DubbingLanguageEntry = DubbingLanguageCapability.extend({
  /** How a voice speaks it here: a neural voice (Kokoro), eSpeak NG's, or none. */
  voices: z.enum(['neural', 'classic', 'none']),
});
export type DubbingLanguageEntry = z.infer<typeof DubbingLanguageEntry>;

export const dubbingLanguagesRoute = defineRoute({
  method: 'GET',
  path: '/v1/dubbing/languages',
  summary: 'The 29 dubbing languages, each with what this installation can do with it now',
  tags,
  response: z.object({ languages: z.array(DubbingLanguageEntry) }),
});

export const getDubbingRoute = defineRoute({
  method: 'GET',
  path: '/v1/dubbing/:dubbing_id',
  summary: 'A dub’s status, progress and languages',
  tags,
  params: dubParams,
  response: DubbingMetadata,
});

export const deleteDubbingRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/dubbing/:dubbing_id',
  summary: 'Delete a dub and its files',
  tags,
  params: dubParams,
  response: z.object({ status: z.literal('ok') }),
});

export const getDubbedAudioRoute = defineRoute({
  method: 'GET',
  path: '/v1/dubbing/:dubbing_id/audio/:language_code',
  summary: 'The dubbed file in a language (mp4 for a video, mp3 for audio)',
  tags,
  params: dubLanguageParams,
  response: z.any().meta({ description: 'video/mp4 or audio/mpeg' }),
});

export const getDubbingTranscriptRoute = defineRoute({
  method: 'GET',
  path: '/v1/dubbing/:dubbing_id/transcript/:language_code',
  summary: 'The transcript in a language (the source language or a target), as srt, webvtt or json',
  tags,
  params: dubLanguageParams,
  query: z.object({
    format_type: z.enum(DUBBING_TRANSCRIPT_FORMATS).default('srt'),
    /** Send the file itself (text/plain srt, text/vtt, or JSON) with a download name, not JSON. */
    download: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional(),
  }),
  response: z.any().meta({ description: 'JSON: the srt or webvtt text as a string, or the json transcript' }),
});

export const getDubbingTranscriptsRoute = defineRoute({
  method: 'GET',
  path: '/v1/dubbing/:dubbing_id/transcripts/:language_code/format/:format_type',
  summary: 'The transcript in a language and format, wrapped in JSON',
  tags,
  params: dubLanguageParams.extend({ format_type: z.enum(DUBBING_TRANSCRIPT_FORMATS) }),
  response: DubbingTranscriptsResponse,
});

const resourcePath = '/v1/dubbing/resource/:dubbing_id';
const rtags = ['dubbing-resource'] as const;

export const getDubbingResourceRoute = defineRoute({
  method: 'GET',
  path: resourcePath,
  summary: 'The editor’s view of a dub: speakers, segments per language, renders',
  tags: rtags,
  params: dubParams,
  response: DubbingResource,
});

export const transcribeSegmentsRoute = defineRoute({
  method: 'POST',
  path: `${resourcePath}/transcribe`,
  summary: 'Transcribe segments again from the source audio',
  tags: rtags,
  params: dubParams,
  body: TranscribeSegmentsBody,
  response: VersionResponse,
});

export const translateSegmentsRoute = defineRoute({
  method: 'POST',
  path: `${resourcePath}/translate`,
  summary: 'Translate segments again (all when the list is empty) into some or all languages',
  tags: rtags,
  params: dubParams,
  body: TranslateSegmentsBody,
  response: VersionResponse,
});

export const dubSegmentsRoute = defineRoute({
  method: 'POST',
  path: `${resourcePath}/dub`,
  summary: 'Speak segments again (all when the list is empty) in some or all languages',
  tags: rtags,
  params: dubParams,
  body: DubSegmentsBody,
  response: VersionResponse,
});

export const renderDubbingRoute = defineRoute({
  method: 'POST',
  path: `${resourcePath}/render/:language`,
  summary: 'Render a language as a file (mp4, aac, mp3, wav, tracks_zip, clips_zip)',
  tags: rtags,
  params: dubParams.extend({ language: z.string().min(1).max(10) }),
  body: RenderBody,
  response: RenderResponse,
});

export const addDubbingLanguageRoute = defineRoute({
  method: 'POST',
  path: `${resourcePath}/language`,
  summary: 'Add a target language (translated and spoken by the next dub call)',
  tags: rtags,
  params: dubParams,
  body: AddLanguageBody,
  response: VersionResponse,
});

export const migrateSegmentsRoute = defineRoute({
  method: 'POST',
  path: `${resourcePath}/migrate-segments`,
  summary: 'Move segments to another speaker',
  tags: rtags,
  params: dubParams,
  body: MigrateSegmentsBody,
  response: VersionResponse,
});

export const updateSegmentRoute = defineRoute({
  method: 'PATCH',
  path: `${resourcePath}/segment/:segment_id/:language`,
  summary: 'Change a segment’s times or its text in one language (the source language or a target)',
  tags: rtags,
  params: dubParams.extend({ segment_id: z.string().min(1).max(100), language: z.string().min(1).max(10) }),
  body: UpdateSegmentBody,
  response: VersionResponse,
});

export const deleteSegmentRoute = defineRoute({
  method: 'DELETE',
  path: `${resourcePath}/segment/:segment_id`,
  summary: 'Delete a segment',
  tags: rtags,
  params: dubParams.extend({ segment_id: z.string().min(1).max(100) }),
  response: VersionResponse,
});

export const createSpeakerRoute = defineRoute({
  method: 'POST',
  path: `${resourcePath}/speaker`,
  summary: 'Add a speaker',
  tags: rtags,
  params: dubParams,
  body: CreateSpeakerBody,
  response: SpeakerCreatedResponse,
});

export const updateSpeakerRoute = defineRoute({
  method: 'PATCH',
  path: `${resourcePath}/speaker/:speaker_id`,
  summary: 'Rename a speaker or change its voice (in some or all languages)',
  tags: rtags,
  params: dubParams.extend({ speaker_id: z.string().min(1).max(100) }),
  body: UpdateSpeakerBody,
  response: VersionResponse,
});

export const dubbingSimilarVoicesRoute = defineRoute({
  method: 'GET',
  path: `${resourcePath}/speaker/:speaker_id/similar-voices`,
  summary: 'The voices nearest a speaker’s pitch and timbre',
  tags: rtags,
  params: dubParams.extend({ speaker_id: z.string().min(1).max(100) }),
  response: SimilarVoicesResponse,
});

export const createSegmentRoute = defineRoute({
  method: 'POST',
  path: `${resourcePath}/speaker/:speaker_id/segment`,
  summary: 'Add a segment to a speaker',
  tags: rtags,
  params: dubParams.extend({ speaker_id: z.string().min(1).max(100) }),
  body: CreateSegmentBody,
  response: SegmentCreatedResponse,
});

/** Files of a dub (inputs, clips, renders) as the media references' `url` points at them (private). */
export const getDubbingFileRoute = defineRoute({
  method: 'GET',
  path: '/v1/dubbing/resource/:dubbing_id/file/:file_id',
  summary: 'A file of the dub: the input, a speaker’s track, a dubbed clip or a render',
  tags: rtags,
  params: dubParams.extend({ file_id: z.string().min(1).max(200) }),
  response: z.any().meta({ description: 'the file' }),
});

// ---- The newer project calls, where they map (`dubbing.project`): a project is a dub, a language its code ---

const projectStatus = z.enum(['queued', 'preparing', 'processing', 'ready', 'failed']);
const languageStatus = z.enum(['queued', 'processing', 'completed', 'stale', 'failed']);
const dubbingError = z.object({ message_type: z.literal('error'), error: z.string() });

/** `DubbingProjectResponse`. */
export const DubbingProject = z.object({
  project_id: z.string(),
  status: projectStatus,
  reference: z.string().optional(),
  source_language: z.string().optional(),
  model_id: z.string().optional(),
  media: z
    .object({
      filename: z.string().optional(),
      duration_s: z.number().optional(),
      has_video: z.boolean().optional(),
      mime_type: z.string().optional(),
    })
    .optional(),
  language_ids: z.array(z.string()),
  webhook_ids: z.array(z.string()),
  revision: z.number().int(),
  error: dubbingError.optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DubbingProject = z.infer<typeof DubbingProject>;

/** `DubbingLanguageResponse`. */
export const DubbingProjectLanguage = z.object({
  language_id: z.string(),
  project_id: z.string(),
  target_language: z.string(),
  status: languageStatus,
  model_id: z.string().optional(),
  outputs: z.object({ lossless_audio: z.string().optional(), subtitles: z.string().optional() }).optional(),
  revision: z.number().int(),
  output_revision: z.number().int().optional(),
  error: dubbingError.optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DubbingProjectLanguage = z.infer<typeof DubbingProjectLanguage>;

const projectParams = z.object({ project_id: z.string().min(1).max(100) });
const ptags = ['dubbing-project'] as const;

export const listDubbingProjectsRoute = defineRoute({
  method: 'GET',
  path: '/v1/dubbing/project',
  summary: 'The workspace’s dubs as dubbing projects',
  tags: ptags,
  query: z.object({
    cursor: z.string().max(200).optional(),
    page_size: z.coerce.number().int().min(1).max(200).default(100),
    status: projectStatus.optional(),
    sort_direction: z.enum(['asc', 'desc']).default('desc'),
  }),
  response: z.object({ projects: z.array(DubbingProject), next_cursor: z.string().optional() }),
});

export const getDubbingProjectRoute = defineRoute({
  method: 'GET',
  path: '/v1/dubbing/project/:project_id',
  summary: 'A dub as a dubbing project',
  tags: ptags,
  params: projectParams,
  response: DubbingProject,
});

export const deleteDubbingProjectRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/dubbing/project/:project_id',
  summary: 'Delete a dub (as a dubbing project)',
  tags: ptags,
  params: projectParams,
  response: z.object({}),
});

export const listDubbingProjectLanguagesRoute = defineRoute({
  method: 'GET',
  path: '/v1/dubbing/project/:project_id/language',
  summary: 'A dub’s target languages (as project languages)',
  tags: ptags,
  params: projectParams,
  query: z.object({
    cursor: z.string().max(200).optional(),
    page_size: z.coerce.number().int().min(1).max(200).default(100),
    status: languageStatus.optional(),
  }),
  response: z.object({ languages: z.array(DubbingProjectLanguage), next_cursor: z.string().optional() }),
});

export const getDubbingProjectLanguageRoute = defineRoute({
  method: 'GET',
  path: '/v1/dubbing/project/:project_id/language/:language_id',
  summary: 'One target language of a dub (the language id is its code)',
  tags: ptags,
  params: projectParams.extend({ language_id: z.string().min(1).max(10) }),
  response: DubbingProjectLanguage,
});

export const addDubbingProjectLanguageRoute = defineRoute({
  method: 'POST',
  path: '/v1/dubbing/project/:project_id/language',
  summary:
    'Add a target language to a dub: translated at once (or as given), spoken by the next dub call; charged per minute',
  tags: ptags,
  params: projectParams,
  body: z.object({ target_language: languageCode, translations: z.record(z.string(), z.string()).nullish() }),
  response: DubbingProjectLanguage,
});
