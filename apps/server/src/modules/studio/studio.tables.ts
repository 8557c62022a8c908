import type {
  CharacterAlignmentModel,
  QualityPreset,
  StudioBlockSubType,
  StudioChapterState,
  StudioProjectState,
  VoiceSettings,
} from '@parla/contracts';
import { bigint, boolean, index, integer, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/** A pronunciation dictionary a project names: its id and the version pinned (null: its latest). */
export interface StoredLocator {
  pronunciation_dictionary_id: string;
  version_id: string | null;
}

/**
 * Studio projects (issue 30 item 2; history/voices §3 "Studio project" with every field and default:
 * state 'default', project_settings.continue_playing false, title/author/isbn null, description '',
 * genres [], cover_image_url '', target_audience 'all ages', mature_content false, acx_volume_normalization
 * false, quality_preset 'standard', added_to_queue_at_unix 0, queue_position null, pronunciation
 * dictionaries as id + version_id). The chapters' order is their `position`.
 */
export const studioProjects = pgTable(
  'studio_projects',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    state: text('state').$type<StudioProjectState>().notNull().default('default'),
    defaultTitleVoiceId: text('default_title_voice_id').notNull(),
    defaultParagraphVoiceId: text('default_paragraph_voice_id').notNull(),
    defaultModelId: text('default_model_id').notNull(),
    qualityPreset: text('quality_preset').$type<QualityPreset>().notNull().default('standard'),
    title: text('title'),
    author: text('author'),
    isbnNumber: text('isbn_number'),
    description: text('description').notNull().default(''),
    genres: jsonb('genres').$type<string[]>().notNull().default([]),
    language: text('language'),
    contentType: text('content_type'),
    originalPublicationDate: text('original_publication_date'),
    coverImageUrl: text('cover_image_url').notNull().default(''),
    targetAudience: text('target_audience')
      .$type<'children' | 'young adult' | 'adult' | 'all ages'>()
      .notNull()
      .default('all ages'),
    matureContent: boolean('mature_content').notNull().default(false),
    fiction: text('fiction').$type<'fiction' | 'non-fiction'>(),
    acxVolumeNormalization: boolean('acx_volume_normalization').notNull().default(false),
    volumeNormalization: boolean('volume_normalization').notNull().default(false),
    applyTextNormalization: text('apply_text_normalization')
      .$type<'auto' | 'on' | 'off' | 'apply_english'>()
      .notNull()
      .default('auto'),
    sourceType: text('source_type')
      .$type<'blank' | 'book' | 'article' | 'genfm' | 'video' | 'screenplay'>()
      .notNull()
      .default('blank'),
    callbackUrl: text('callback_url'),
    pronunciationDictionaryLocators: jsonb('pronunciation_dictionary_locators')
      .$type<StoredLocator[]>()
      .notNull()
      .default([]),
    projectSettings: jsonb('project_settings')
      .$type<{ continue_playing: boolean }>()
      .notNull()
      .default({ continue_playing: false }),
    lastChaptersOrderChangeMs: bigint('last_chapters_order_change_ms', { mode: 'number' }),
    /** The chapters the running conversion converts (project_conversion_chapter_ids_converting). */
    convertingChapterIds: jsonb('converting_chapter_ids').$type<string[]>().notNull().default([]),
    addedToQueueAtUnix: integer('added_to_queue_at_unix').notNull().default(0),
    queuePosition: integer('queue_position'),
    latestSnapshotId: text('latest_snapshot_id'),
    lastConversionAt: timestamp('last_conversion_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('studio_projects_workspace_idx').on(t.workspaceId, t.createdAt)],
);
export type StudioProjectRow = typeof studioProjects.$inferSelect;

/** A chapter of a project (history/voices §3 "Studio chapter"); its blocks' order is their `position`. */
export const studioChapters = pgTable(
  'studio_chapters',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => studioProjects.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    state: text('state').$type<StudioChapterState>().notNull().default('default'),
    conversionProgress: real('conversion_progress'),
    lastConversionAt: timestamp('last_conversion_at', { withTimezone: true }),
    lastConversionError: text('last_conversion_error'),
    lastBlockIdsOrderChangeMs: bigint('last_block_ids_order_change_ms', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('studio_chapters_project_idx').on(t.projectId, t.position)],
);
export type StudioChapterRow = typeof studioChapters.$inferSelect;

/** A node of a block: a run of text in one voice. */
export interface StoredNode {
  text: string;
  voice_id: string;
}

/**
 * A block (a paragraph or a heading) of a chapter: its nodes, and its own model and settings (null: the
 * project's default model, the voice's settings). `convertedHash` is the hash of what its audio was last
 * made from (text, voices, model, settings, dictionary versions); its audio is in storage under that hash.
 */
export const studioBlocks = pgTable(
  'studio_blocks',
  {
    id: text('id').primaryKey(),
    chapterId: text('chapter_id')
      .notNull()
      .references(() => studioChapters.id, { onDelete: 'cascade' }),
    projectId: text('project_id').notNull(),
    position: integer('position').notNull(),
    subType: text('sub_type').$type<StudioBlockSubType>().notNull().default('p'),
    nodes: jsonb('nodes').$type<StoredNode[]>().notNull(),
    modelId: text('model_id'),
    voiceSettings: jsonb('voice_settings').$type<Partial<VoiceSettings> | null>(),
    convertedHash: text('converted_hash'),
  },
  (t) => [index('studio_blocks_chapter_idx').on(t.chapterId, t.position)],
);
export type StudioBlockRow = typeof studioBlocks.$inferSelect;

/** A snapshot of a chapter: the audio one conversion made of it, with its alignment. */
export const studioChapterSnapshots = pgTable(
  'studio_chapter_snapshots',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => studioProjects.id, { onDelete: 'cascade' }),
    chapterId: text('chapter_id').notNull(),
    workspaceId: text('workspace_id').notNull(),
    name: text('name').notNull(),
    audioKey: text('audio_key').notNull(),
    durationSecs: real('duration_secs').notNull(),
    alignments: jsonb('alignments').$type<CharacterAlignmentModel[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('studio_chapter_snapshots_chapter_idx').on(t.chapterId, t.createdAt)],
);
export type StudioChapterSnapshotRow = typeof studioChapterSnapshots.$inferSelect;

/** A snapshot of a project: its chapters' snapshots at the end of one conversion, in order. */
export const studioProjectSnapshots = pgTable(
  'studio_project_snapshots',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => studioProjects.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    name: text('name').notNull(),
    chapterSnapshotIds: jsonb('chapter_snapshot_ids').$type<string[]>().notNull(),
    durationSecs: real('duration_secs').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('studio_project_snapshots_project_idx').on(t.projectId, t.createdAt)],
);
export type StudioProjectSnapshotRow = typeof studioProjectSnapshots.$inferSelect;
