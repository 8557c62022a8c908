import type { VoiceProfile } from '@parla/audio';
import type { DubbingStage, DubbingStatus, RenderType } from '@parla/contracts';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/** What the create call asked for besides the languages (CreateDubbingFields, kept as given). */
export interface DubOptions {
  numSpeakers: number;
  watermark: boolean;
  startTime: number | null;
  endTime: number | null;
  highestResolution: boolean;
  dropBackgroundAudio: boolean;
  useProfanityFilter: boolean;
  dubbingStudio: boolean;
  disableVoiceCloning: boolean;
  mode: 'automatic' | 'manual';
}

/** The source as it was probed. */
export interface DubInput {
  kind: 'audio' | 'video';
  fileName: string | null;
  contentType: string;
  durationSec: number;
  /** The stored source (trimmed to start/end time): what every stage and render reads. */
  key: string;
}

/**
 * Dubs (issue 29; history/voices §3 "Dubbing"): a source file, its languages, and where its job is. The
 * stage says what the job resumes at after a crash; every stage's result is in the rows below.
 */
export const dubs = pgTable(
  'dubs',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    apiKeyId: text('api_key_id'),
    requestId: text('request_id').notNull(),
    name: text('name').notNull(),
    status: text('status').$type<DubbingStatus>().notNull(),
    stage: text('stage').$type<DubbingStage>().notNull(),
    progress: real('progress').notNull().default(0),
    progressMessage: text('progress_message'),
    error: text('error'),
    refunded: boolean('refunded').notNull().default(false),
    /** `auto` or the code asked for; `sourceLanguage` is what was heard (or asked). */
    sourceLangRequested: text('source_lang_requested').notNull(),
    sourceLanguage: text('source_language'),
    targetLanguages: jsonb('target_languages').$type<string[]>().notNull(),
    options: jsonb('options').$type<DubOptions>().notNull(),
    input: jsonb('input').$type<DubInput>().notNull(),
    /** The manual mode's CSV, stored as sent (null in automatic mode). */
    csvKey: text('csv_key'),
    credits: integer('credits').notNull(),
    expectedDurationSec: real('expected_duration_sec').notNull(),
    /** The editor's resource version: every change adds one. */
    version: integer('version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('dubs_workspace_idx').on(t.workspaceId, t.createdAt)],
);
export type DubRow = typeof dubs.$inferSelect;

/** A speaker of a dub: its voice profile (from its own audio) and the voices chosen per language. */
export const dubSpeakers = pgTable(
  'dub_speakers',
  {
    id: text('id').primaryKey(),
    dubId: text('dub_id')
      .notNull()
      .references(() => dubs.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    /** Pitch and vocal tract measured on the speaker's segments (null: too little voiced speech). */
    profile: jsonb('profile').$type<VoiceProfile | null>(),
    /** Voice ids chosen in the editor, per language (absent: the matched voice). */
    voices: jsonb('voices').$type<Record<string, string>>().notNull().default({}),
    /** The matched voices the job picked, per language (what `voices` reports when nothing was chosen). */
    matched: jsonb('matched').$type<Record<string, string>>().notNull().default({}),
    tuning: jsonb('tuning')
      .$type<{ stability?: number; similarity?: number; style?: number }>()
      .notNull()
      .default({}),
  },
  (t) => [index('dub_speakers_dub_idx').on(t.dubId, t.position)],
);
export type DubSpeakerRow = typeof dubSpeakers.$inferSelect;

/** A word of the source with its time, as the recogniser heard it. */
export interface DubWord {
  text: string;
  start: number;
  end: number;
}

/** A segment of the source: one speaker, one stretch between sentence or pause boundaries. */
export const dubSegments = pgTable(
  'dub_segments',
  {
    id: text('id').primaryKey(),
    dubId: text('dub_id')
      .notNull()
      .references(() => dubs.id, { onDelete: 'cascade' }),
    speakerId: text('speaker_id').notNull(),
    startTime: real('start_time').notNull(),
    endTime: real('end_time').notNull(),
    text: text('text').notNull(),
    words: jsonb('words').$type<DubWord[]>().notNull().default([]),
  },
  (t) => [index('dub_segments_dub_idx').on(t.dubId, t.startTime)],
);
export type DubSegmentRow = typeof dubSegments.$inferSelect;

/** A segment in one target language: its translation and its spoken clip. */
export const dubSegmentLanguages = pgTable(
  'dub_segment_languages',
  {
    segmentId: text('segment_id')
      .notNull()
      .references(() => dubSegments.id, { onDelete: 'cascade' }),
    dubId: text('dub_id')
      .notNull()
      .references(() => dubs.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    /** Null until translated. */
    text: text('text'),
    startTime: real('start_time').notNull(),
    endTime: real('end_time').notNull(),
    /** The fitted clip (wav) in storage; null until spoken. */
    audioKey: text('audio_key'),
    /** The text, voice or times changed since the clip was spoken. */
    audioStale: boolean('audio_stale').notNull().default(true),
    /** The tempo the clip was fitted with, and the seconds it runs past its slot. */
    tempo: real('tempo'),
    overflowSec: real('overflow_sec'),
  },
  (t) => [
    primaryKey({ columns: [t.segmentId, t.language] }),
    index('dub_segment_languages_dub_idx').on(t.dubId),
  ],
);
export type DubSegmentLanguageRow = typeof dubSegmentLanguages.$inferSelect;

/** A rendered file of a language (`automatic`: the dub's own output, what `GET …/audio/{lang}` sends). */
export const dubRenders = pgTable(
  'dub_renders',
  {
    id: text('id').primaryKey(),
    dubId: text('dub_id')
      .notNull()
      .references(() => dubs.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    type: text('type').$type<RenderType>().notNull(),
    status: text('status').$type<'processing' | 'complete' | 'failed'>().notNull(),
    automatic: boolean('automatic').notNull().default(false),
    version: integer('version').notNull(),
    key: text('key'),
    contentType: text('content_type'),
    durationSec: real('duration_sec'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('dub_renders_dub_idx').on(t.dubId, t.language)],
);
export type DubRenderRow = typeof dubRenders.$inferSelect;
