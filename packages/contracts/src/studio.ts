import { z } from 'zod';
import { PronunciationDictionaryLocator } from './pronunciation-dictionaries';
import { defineRoute } from './routes';
import { DEFAULT_TTS_MODEL_ID } from './tts-catalog';

/*
 * Studio projects (issue 30 item 2; history/voices §3 "Studio project", "Studio chapter", §5 live
 * moderation; accounts §9 Studio limits). Wire names are the public API's (`studio` of
 * `@elevenlabs/elevenlabs-js`, podcasts aside): every JSON answer carries the fields its serializer
 * requires, and downloads (snapshot stream, archive) are raw bodies.
 */

// ---- Constants and defaults ------------------------------------------------------------------------------

/** history/voices §3: a project's and a chapter's state. `creating` while an import runs. */
export const STUDIO_PROJECT_STATES = ['creating', 'default', 'converting', 'in_queue'] as const;
export type StudioProjectState = (typeof STUDIO_PROJECT_STATES)[number];
export const STUDIO_CHAPTER_STATES = ['default', 'converting'] as const;
export type StudioChapterState = (typeof STUDIO_CHAPTER_STATES)[number];

export const QUALITY_PRESETS = ['standard', 'high', 'ultra', 'ultra_lossless'] as const;
export type QualityPreset = (typeof QUALITY_PRESETS)[number];
export const TARGET_AUDIENCES = ['children', 'young adult', 'adult', 'all ages'] as const;
export const STUDIO_FICTION = ['fiction', 'non-fiction'] as const;
export const STUDIO_SOURCE_TYPES = ['blank', 'book', 'article', 'genfm', 'video', 'screenplay'] as const;
export const STUDIO_TEXT_NORMALIZATION = ['auto', 'on', 'off', 'apply_english'] as const;
/** A paragraph block's kind (ChapterContentBlockInputModelSubType). */
export const STUDIO_BLOCK_SUB_TYPES = ['p', 'h1', 'h2', 'h3'] as const;
export type StudioBlockSubType = (typeof STUDIO_BLOCK_SUB_TYPES)[number];

/**
 * The default voice of titles and paragraphs: Onyx, "deep American voice for narration", one of the
 * American men's voices that speak through Piper (tts-catalog PREMADE_VOICES' `piper`). Issue 30 asks a
 * 100,000-character book at ≥ 15× real time on 2 cores with the default voice: Kokoro (parla_neural_v1)
 * tops out near 6× there, Piper measured 20.7× (decision 25, "Studio projects").
 */
export const STUDIO_DEFAULT_VOICE_ID = 'arPsSgKizk2HjLGhPJKv';
/** The default model: the fast neural one (Piper), for the same reason. */
export const STUDIO_DEFAULT_MODEL_ID = 'parla_neural_fast_v1';
/** The model a new project gets when Piper is not installed on the server: text to speech's default. */
export const STUDIO_FALLBACK_MODEL_ID = DEFAULT_TTS_MODEL_ID;

/** The largest document a project is made from (checked before it is read whole). */
export const STUDIO_MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
/** The most characters one block's text may hold (a paragraph; text to speech's own limit bounds it too). */
export const STUDIO_MAX_BLOCK_CHARS = 5_000;
/** The most blocks one chapter may hold, and chapters one project. */
export const STUDIO_MAX_BLOCKS_PER_CHAPTER = 5_000;
export const STUDIO_MAX_CHAPTERS = 500;

/** Silence after a paragraph and after a heading in a chapter's audio (ms). */
export const STUDIO_PARAGRAPH_PAUSE_MS = 400;
export const STUDIO_HEADING_PAUSE_MS = 900;

export const studioProjectLimitMessage = (limit: number): string =>
  `You have reached your plan's limit of ${limit} Studio projects. Delete a project or upgrade your plan to create another.`;

// ---- Wire shapes -----------------------------------------------------------------------------------------

/** A tts node of a block as sent (ChapterContentParagraphTtsNodeInputModel). */
export const StudioNodeInput = z.object({
  type: z.literal('tts_node'),
  text: z.string().max(STUDIO_MAX_BLOCK_CHARS),
  voice_id: z.string().min(1).max(100),
});
export type StudioNodeInput = z.infer<typeof StudioNodeInput>;

/** A block as sent (ChapterContentBlockInputModel). */
export const StudioBlockInput = z.object({
  sub_type: z.enum(STUDIO_BLOCK_SUB_TYPES).nullish(),
  block_id: z.string().min(1).max(100).nullish(),
  nodes: z.array(StudioNodeInput).max(50),
});
export type StudioBlockInput = z.infer<typeof StudioBlockInput>;

export const StudioChapterContentInput = z.object({
  blocks: z.array(StudioBlockInput).max(STUDIO_MAX_BLOCKS_PER_CHAPTER),
});
export type StudioChapterContentInput = z.infer<typeof StudioChapterContentInput>;

/** `from_content_json`: chapters of blocks of nodes (the create call's string, parsed). */
export const StudioContentJson = z
  .array(
    z.object({
      name: z.string().min(1).max(255),
      blocks: z.array(StudioBlockInput).max(STUDIO_MAX_BLOCKS_PER_CHAPTER),
    }),
  )
  .max(STUDIO_MAX_CHAPTERS);
export type StudioContentJson = z.infer<typeof StudioContentJson>;

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');

/** The create call's text fields (multipart; repeated fields arrive as lists). */
export const CreateStudioProjectFields = z.object({
  name: z.string().trim().min(1, 'The project needs a name.').max(255),
  default_title_voice_id: z.string().min(1).max(100).optional(),
  default_paragraph_voice_id: z.string().min(1).max(100).optional(),
  default_model_id: z.string().min(1).max(100).optional(),
  from_url: z.string().max(2048).optional(),
  from_content_json: z
    .string()
    .max(20 * 1024 * 1024)
    .optional(),
  quality_preset: z.enum(QUALITY_PRESETS).optional(),
  title: z.string().max(500).optional(),
  author: z.string().max(500).optional(),
  description: z.string().max(10_000).optional(),
  genres: z.array(z.string().max(100)).max(50).optional(),
  target_audience: z.enum(TARGET_AUDIENCES).optional(),
  language: z.string().max(20).optional(),
  content_type: z.string().max(100).optional(),
  original_publication_date: z.string().max(40).optional(),
  mature_content: bool.optional(),
  isbn_number: z.string().max(40).optional(),
  acx_volume_normalization: bool.optional(),
  volume_normalization: bool.optional(),
  pronunciation_dictionary_locators: z.array(z.string().max(1000)).max(10).optional(),
  callback_url: z.string().max(2048).optional(),
  fiction: z.enum(STUDIO_FICTION).optional(),
  apply_text_normalization: z.enum(STUDIO_TEXT_NORMALIZATION).optional(),
  auto_convert: bool.optional(),
  auto_assign_voices: bool.optional(),
  source_type: z.enum(STUDIO_SOURCE_TYPES).optional(),
  voice_settings: z.array(z.string().max(2000)).max(100).optional(),
  create_publishing_read: bool.optional(),
});
export type CreateStudioProjectFields = z.infer<typeof CreateStudioProjectFields>;

/** The content call's fields (multipart). */
export const UpdateStudioContentFields = z.object({
  from_url: z.string().max(2048).optional(),
  from_content_json: z
    .string()
    .max(20 * 1024 * 1024)
    .optional(),
  auto_convert: bool.optional(),
});
export type UpdateStudioContentFields = z.infer<typeof UpdateStudioContentFields>;

/** The update call (BodyUpdateStudioProjectV1StudioProjectsProjectIdPost). */
export const UpdateStudioProjectBody = z.object({
  name: z.string().trim().min(1, 'The project needs a name.').max(255),
  default_title_voice_id: z.string().min(1).max(100),
  default_paragraph_voice_id: z.string().min(1).max(100),
  title: z.string().max(500).nullish(),
  author: z.string().max(500).nullish(),
  isbn_number: z.string().max(40).nullish(),
  volume_normalization: z.boolean().nullish(),
});
export type UpdateStudioProjectBody = z.infer<typeof UpdateStudioProjectBody>;

export const CreateStudioChapterBody = z.object({
  name: z.string().trim().min(1, 'The chapter needs a name.').max(255),
  from_url: z.string().max(2048).nullish(),
});
export const UpdateStudioChapterBody = z.object({
  name: z.string().trim().min(1).max(255).nullish(),
  content: StudioChapterContentInput.nullish(),
});
export type UpdateStudioChapterBody = z.infer<typeof UpdateStudioChapterBody>;

export const StudioDictionariesBody = z.object({
  pronunciation_dictionary_locators: z.array(PronunciationDictionaryLocator).max(10),
  invalidate_affected_text: z.boolean().nullish(),
});
export type StudioDictionariesBody = z.infer<typeof StudioDictionariesBody>;

/** `convert_to_mpeg` is accepted; the audio is always MPEG. */
export const SnapshotStreamBody = z.object({ convert_to_mpeg: z.boolean().nullish() }).nullish();

/** ChapterStatisticsResponse. */
const ChapterStatistics = z.object({
  characters_unconverted: z.number(),
  characters_converted: z.number(),
  paragraphs_converted: z.number(),
  paragraphs_unconverted: z.number(),
});

/** ChapterResponse (history/voices §3 Studio chapter). */
export const StudioChapter = z.object({
  chapter_id: z.string(),
  name: z.string(),
  last_conversion_date_unix: z.number().nullable(),
  conversion_progress: z.number().nullable(),
  can_be_downloaded: z.boolean(),
  state: z.enum(STUDIO_CHAPTER_STATES),
  has_video: z.boolean(),
  has_visual_content: z.boolean(),
  voice_ids: z.array(z.string()),
  statistics: ChapterStatistics,
  last_conversion_error: z.string().nullable(),
  block_ids_order: z.array(z.string()),
  last_block_ids_order_change_unix_ms: z.number().nullable(),
});
export type StudioChapter = z.infer<typeof StudioChapter>;

/** A block as answered (ChapterContentBlockResponseModel, with its kind, model and settings besides). */
export const StudioBlock = z.object({
  block_id: z.string(),
  sub_type: z.enum(STUDIO_BLOCK_SUB_TYPES),
  nodes: z.array(
    z.object({
      type: z.literal('tts_node'),
      project_voice_ref_id: z.string(),
      text: z.string(),
      voice_id: z.string(),
    }),
  ),
  model_id: z.string().nullable(),
  converted: z.boolean(),
});

export const StudioChapterWithContent = StudioChapter.extend({
  content: z.object({ blocks: z.array(StudioBlock) }),
});
export type StudioChapterWithContent = z.infer<typeof StudioChapterWithContent>;

/** ProjectResponse (history/voices §3 Studio project, with its defaults). */
export const StudioProject = z.object({
  project_id: z.string(),
  name: z.string(),
  create_date_unix: z.number(),
  created_by_user_id: z.string().nullable(),
  default_title_voice_id: z.string(),
  default_paragraph_voice_id: z.string(),
  default_title_voice_ref_id: z.string(),
  default_paragraph_voice_ref_id: z.string(),
  default_model_id: z.string(),
  last_conversion_date_unix: z.number().nullable(),
  can_be_downloaded: z.boolean(),
  title: z.string().nullable(),
  author: z.string().nullable(),
  description: z.string(),
  genres: z.array(z.string()),
  cover_image_url: z.string(),
  target_audience: z.enum(TARGET_AUDIENCES),
  language: z.string().nullable(),
  content_type: z.string().nullable(),
  original_publication_date: z.string().nullable(),
  mature_content: z.boolean(),
  isbn_number: z.string().nullable(),
  fiction: z.enum(STUDIO_FICTION).nullable(),
  volume_normalization: z.boolean(),
  acx_volume_normalization: z.boolean(),
  state: z.enum(STUDIO_PROJECT_STATES),
  access_level: z.enum(['admin', 'editor', 'commenter', 'viewer']),
  quality_check_on: z.boolean(),
  quality_check_on_when_bulk_convert: z.boolean(),
  source_type: z.enum(STUDIO_SOURCE_TYPES),
  chapters_enabled: z.boolean(),
  callback_url: z.string().nullable(),
  project_settings: z.object({ continue_playing: z.boolean() }),
  chapters_order: z.array(z.string()),
  last_chapters_order_change_unix_ms: z.number().nullable(),
  project_conversion_chapter_ids_converting: z.array(z.string()),
  latest_snapshot_id: z.string().nullable(),
  added_to_queue_at_unix: z.number(),
  queue_position: z.number().nullable(),
  creation_meta: z.object({ creation_progress: z.number(), status: z.string(), type: z.string() }),
});
export type StudioProject = z.infer<typeof StudioProject>;

const StoredLocator = z.object({
  pronunciation_dictionary_id: z.string(),
  version_id: z.string().nullable(),
});

/** ProjectExtendedResponse. */
export const StudioProjectExtended = StudioProject.extend({
  quality_preset: z.enum(QUALITY_PRESETS),
  chapters: z.array(StudioChapter),
  pronunciation_dictionary_versions: z.array(
    z.object({
      version_id: z.string(),
      version_rules_num: z.number(),
      pronunciation_dictionary_id: z.string(),
      dictionary_name: z.string(),
      version_name: z.string(),
      created_by: z.string(),
      creation_time_unix: z.number(),
    }),
  ),
  pronunciation_dictionary_locators: z.array(StoredLocator),
  apply_text_normalization: z.enum(STUDIO_TEXT_NORMALIZATION),
  assets: z.array(z.unknown()),
  voices: z.array(
    z.object({
      project_voice_ref_id: z.string(),
      voice_id: z.string(),
      alias: z.string(),
      stability: z.number(),
      similarity_boost: z.number(),
      style: z.number(),
      is_pinned: z.boolean(),
      use_speaker_boost: z.boolean(),
      volume_gain: z.number(),
      speed: z.number(),
    }),
  ),
});
export type StudioProjectExtended = z.infer<typeof StudioProjectExtended>;

export const CharacterAlignmentModel = z.object({
  characters: z.array(z.string()),
  character_start_times_seconds: z.array(z.number()),
  character_end_times_seconds: z.array(z.number()),
});
export type CharacterAlignmentModel = z.infer<typeof CharacterAlignmentModel>;

export const StudioProjectSnapshot = z.object({
  project_snapshot_id: z.string(),
  project_id: z.string(),
  created_at_unix: z.number(),
  name: z.string(),
});
export const StudioProjectSnapshotExtended = StudioProjectSnapshot.extend({
  character_alignments: z.array(CharacterAlignmentModel),
  audio_duration_secs: z.number(),
});
export const StudioChapterSnapshot = z.object({
  chapter_snapshot_id: z.string(),
  project_id: z.string(),
  chapter_id: z.string(),
  created_at_unix: z.number(),
  name: z.string(),
});
export const StudioChapterSnapshotExtended = StudioChapterSnapshot.extend({
  character_alignments: z.array(CharacterAlignmentModel),
  audio_duration_secs: z.number(),
});

const status = z.object({ status: z.literal('ok') });

// ---- Routes ----------------------------------------------------------------------------------------------

const tags = ['studio'] as const;
const projectParams = z.object({ project_id: z.string().min(1).max(100) });
const chapterParams = projectParams.extend({ chapter_id: z.string().min(1).max(100) });
const projectSnapshotParams = projectParams.extend({ project_snapshot_id: z.string().min(1).max(100) });
const chapterSnapshotParams = chapterParams.extend({ chapter_snapshot_id: z.string().min(1).max(100) });
const P = '/v1/studio/projects';

export const listStudioProjectsRoute = defineRoute({
  method: 'GET',
  path: P,
  summary: 'The workspace’s Studio projects',
  tags,
  response: z.object({ projects: z.array(StudioProject) }),
});
export const createStudioProjectRoute = defineRoute({
  method: 'POST',
  path: P,
  summary:
    'Create a Studio project (multipart: name, from_document, from_url or from_content_json, defaults, metadata)',
  tags,
  response: z.object({ project: StudioProject }),
});
export const getStudioProjectRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id`,
  summary: 'A Studio project with its chapters, voices and dictionaries',
  tags,
  params: projectParams,
  query: z.object({ share_id: z.string().max(100).optional() }),
  response: StudioProjectExtended,
});
export const updateStudioProjectRoute = defineRoute({
  method: 'POST',
  path: `${P}/:project_id`,
  summary: 'Rename a project, change its default voices and metadata',
  tags,
  params: projectParams,
  body: UpdateStudioProjectBody,
  response: z.object({ project: StudioProject }),
});
export const deleteStudioProjectRoute = defineRoute({
  method: 'DELETE',
  path: `${P}/:project_id`,
  summary: 'Delete a project, its chapters, audio and snapshots',
  tags,
  params: projectParams,
  response: status,
});
export const convertStudioProjectRoute = defineRoute({
  method: 'POST',
  path: `${P}/:project_id/convert`,
  summary: 'Convert every chapter of a project to audio (a job; unchanged paragraphs are not spoken again)',
  tags,
  params: projectParams,
  response: status,
});
export const studioMutedTracksRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/muted-tracks`,
  summary: 'The chapters whose tracks are muted (none: Parla has no per-chapter muting)',
  tags,
  params: projectParams,
  response: z.object({ chapter_ids: z.array(z.string()) }),
});
export const updateStudioContentRoute = defineRoute({
  method: 'POST',
  path: `${P}/:project_id/content`,
  summary: 'Replace a project’s content (multipart: from_document, from_url or from_content_json)',
  tags,
  params: projectParams,
  response: z.object({ project: StudioProject }),
});
export const studioDictionariesRoute = defineRoute({
  method: 'POST',
  path: `${P}/:project_id/pronunciation-dictionaries`,
  summary: 'Set the pronunciation dictionaries a project’s conversions use',
  tags,
  params: projectParams,
  body: StudioDictionariesBody,
  response: status,
});
export const listStudioSnapshotsRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/snapshots`,
  summary: 'The project’s snapshots (one per conversion), newest first',
  tags,
  params: projectParams,
  response: z.object({ snapshots: z.array(StudioProjectSnapshot) }),
});
export const getStudioSnapshotRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/snapshots/:project_snapshot_id`,
  summary: 'A project snapshot with its character alignments',
  tags,
  params: projectSnapshotParams,
  response: StudioProjectSnapshotExtended,
});
export const streamStudioSnapshotRoute = defineRoute({
  method: 'POST',
  path: `${P}/:project_id/snapshots/:project_snapshot_id/stream`,
  summary: 'A project snapshot’s audio (audio/mpeg, the chapters in order)',
  tags,
  params: projectSnapshotParams,
  body: SnapshotStreamBody,
  response: z.any().meta({ description: 'audio/mpeg' }),
});
export const archiveStudioSnapshotRoute = defineRoute({
  method: 'POST',
  path: `${P}/:project_id/snapshots/:project_snapshot_id/archive`,
  summary: 'A project snapshot as a zip of its chapters’ audio',
  tags,
  params: projectSnapshotParams,
  response: z.any().meta({ description: 'application/zip' }),
});
export const listStudioChaptersRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/chapters`,
  summary: 'A project’s chapters in order',
  tags,
  params: projectParams,
  response: z.object({ chapters: z.array(StudioChapter) }),
});
export const createStudioChapterRoute = defineRoute({
  method: 'POST',
  path: `${P}/:project_id/chapters`,
  summary: 'Add a chapter (empty, or from a web page)',
  tags,
  params: projectParams,
  body: CreateStudioChapterBody,
  response: z.object({ chapter: StudioChapterWithContent }),
});
export const getStudioChapterRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/chapters/:chapter_id`,
  summary: 'A chapter with its blocks',
  tags,
  params: chapterParams,
  response: StudioChapterWithContent,
});
export const updateStudioChapterRoute = defineRoute({
  method: 'POST',
  path: `${P}/:project_id/chapters/:chapter_id`,
  summary: 'Rename a chapter or replace its blocks (a block_id keeps its block; the others are new)',
  tags,
  params: chapterParams,
  body: UpdateStudioChapterBody,
  response: z.object({ chapter: StudioChapterWithContent }),
});
export const deleteStudioChapterRoute = defineRoute({
  method: 'DELETE',
  path: `${P}/:project_id/chapters/:chapter_id`,
  summary: 'Delete a chapter',
  tags,
  params: chapterParams,
  response: status,
});
export const convertStudioChapterRoute = defineRoute({
  method: 'POST',
  path: `${P}/:project_id/chapters/:chapter_id/convert`,
  summary: 'Convert one chapter to audio (a job)',
  tags,
  params: chapterParams,
  response: status,
});
export const listStudioChapterSnapshotsRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/chapters/:chapter_id/snapshots`,
  summary: 'A chapter’s snapshots, newest first',
  tags,
  params: chapterParams,
  response: z.object({ snapshots: z.array(StudioChapterSnapshot) }),
});
export const getStudioChapterSnapshotRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/chapters/:chapter_id/snapshots/:chapter_snapshot_id`,
  summary: 'A chapter snapshot with its character alignments',
  tags,
  params: chapterSnapshotParams,
  response: StudioChapterSnapshotExtended,
});
export const streamStudioChapterSnapshotRoute = defineRoute({
  method: 'POST',
  path: `${P}/:project_id/chapters/:chapter_id/snapshots/:chapter_snapshot_id/stream`,
  summary: 'A chapter snapshot’s audio (audio/mpeg)',
  tags,
  params: chapterSnapshotParams,
  body: SnapshotStreamBody,
  response: z.any().meta({ description: 'audio/mpeg' }),
});

/** One progress event of a conversion (the web app's live progress bar, over server-sent events). */
export const StudioProgressEvent = z.object({
  project_id: z.string(),
  state: z.enum(STUDIO_PROJECT_STATES),
  chapters: z.array(
    z.object({
      chapter_id: z.string(),
      state: z.enum(STUDIO_CHAPTER_STATES),
      conversion_progress: z.number().nullable(),
      last_conversion_error: z.string().nullable(),
    }),
  ),
  latest_snapshot_id: z.string().nullable(),
});
export type StudioProgressEvent = z.infer<typeof StudioProgressEvent>;

export const studioProgressRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/progress`,
  summary:
    'Server-sent events of a project’s conversion (Parla’s own, for the web app): one `progress` event per change, ending when no conversion runs',
  tags,
  params: projectParams,
  response: z.any().meta({ description: 'text/event-stream of StudioProgressEvent' }),
});

// ---- Parla's audiobook exports and ACX report (issue 30 item 2) ------------------------------------------

export const STUDIO_BOOK_EXPORT_FORMATS = ['m4b', 'mp3', 'wav', 'zip'] as const;
export type StudioBookExportFormat = (typeof STUDIO_BOOK_EXPORT_FORMATS)[number];
export const STUDIO_CHAPTER_EXPORT_FORMATS = ['mp3', 'wav'] as const;
export type StudioChapterExportFormat = (typeof STUDIO_CHAPTER_EXPORT_FORMATS)[number];

export const exportStudioProjectRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/export`,
  summary:
    'The whole book as one download (Parla’s own): m4b with chapter marks and the audiobook metadata, one mp3 or wav, or a zip of one mp3 per chapter; 409 before the project was converted',
  tags,
  params: projectParams,
  query: z.object({ format: z.enum(STUDIO_BOOK_EXPORT_FORMATS).default('m4b') }),
  response: z.any().meta({ description: 'audio/mp4 (m4b), audio/mpeg, audio/wav or application/zip' }),
});

export const exportStudioChapterRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/chapters/:chapter_id/export`,
  summary: 'One chapter’s audio as a download (Parla’s own): mp3 (ACX’s 192 kb/s) or wav',
  tags,
  params: chapterParams,
  query: z.object({ format: z.enum(STUDIO_CHAPTER_EXPORT_FORMATS).default('mp3') }),
  response: z.any().meta({ description: 'audio/mpeg or audio/wav' }),
});

/** A chapter's ACX check of its last conversion (after mastering when normalised). */
export const StudioChapterAcxReport = z.object({
  rms_db: z.number(),
  peak_db: z.number(),
  noise_floor_db: z.number(),
  passes: z.object({ rms: z.boolean(), peak: z.boolean(), noise_floor: z.boolean() }),
  pass: z.boolean(),
  /** Whether the chapter was normalised (the project's volume_normalization or acx_volume_normalization). */
  normalized: z.boolean(),
  /** The figures before mastering (the chapter as spoken, with its pauses). */
  before: z.object({
    rms_db: z.number(),
    peak_db: z.number(),
    noise_floor_db: z.number(),
    pass: z.boolean(),
  }),
  gain_db: z.number(),
  limiter_db: z.number(),
});
export type StudioChapterAcxReport = z.infer<typeof StudioChapterAcxReport>;

export const studioChapterAcxRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/chapters/:chapter_id/acx`,
  summary:
    'A chapter’s ACX check (RMS −23 to −18 dB, peaks ≤ −3 dB, noise floor ≤ −60 dB) of its last conversion (Parla’s own); 404 before any',
  tags,
  params: chapterParams,
  response: StudioChapterAcxReport,
});

// ---- Cover image (Parla's own; issue 30 "audiobook metadata with a cover") ---------------------------------

/** The largest cover image a project takes (ACX asks 2400 × 2400 px; such a JPEG is a few MB). */
export const STUDIO_MAX_COVER_BYTES = 10 * 1024 * 1024;
/** The cover's kinds, known by their first bytes (never by the name or the declared type). */
export const STUDIO_COVER_TYPES = ['image/png', 'image/jpeg'] as const;
export type StudioCoverType = (typeof STUDIO_COVER_TYPES)[number];

export const uploadStudioCoverRoute = defineRoute({
  method: 'POST',
  path: `${P}/:project_id/cover`,
  summary:
    'Set a project’s cover image (multipart `file`: PNG or JPEG up to 10 MB); its cover_image_url then reads it back',
  tags,
  params: projectParams,
  response: z.object({ project: StudioProject }),
});
export const getStudioCoverRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/cover`,
  summary: 'A project’s cover image (image/png or image/jpeg); 404 when it has none',
  tags,
  params: projectParams,
  response: z.any().meta({ description: 'image/png or image/jpeg' }),
});
export const deleteStudioCoverRoute = defineRoute({
  method: 'DELETE',
  path: `${P}/:project_id/cover`,
  summary: 'Remove a project’s cover image',
  tags,
  params: projectParams,
  response: z.object({ project: StudioProject }),
});
