import type { TranscriptStatus, WireTranscript } from '@parla/contracts';
import { boolean, index, integer, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/** What a transcription was asked to do, kept for the background job and the transcript's record. */
export interface TranscriptOptions {
  languageCode: string | undefined;
  tagAudioEvents: boolean;
  numSpeakers: number | undefined;
  timestampsGranularity: 'none' | 'word' | 'character';
  diarize: boolean;
  diarizationThreshold: number | undefined;
  useMultiChannel: boolean;
  multichannelOutputStyle: 'separate' | 'combined';
  /** The `additional_formats` entries, as the request sent them (validated). */
  additionalFormats: Record<string, unknown>[];
}

/**
 * A workspace's transcripts (issue 19): one row per transcription, from its start (`processing`) to
 * `completed` with the public API's transcript, or `failed` with the reason. The uploaded audio (or the
 * audio of an uploaded video) is kept in storage as MP3 under `audioKey`.
 */
export const transcripts = pgTable(
  'transcripts',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The API key that asked for it (its concurrency slot), if any. */
    apiKeyId: text('api_key_id'),
    name: text('name').notNull(),
    status: text('status', { enum: ['processing', 'completed', 'failed'] })
      .$type<TranscriptStatus>()
      .notNull(),
    progress: real('progress').notNull().default(0),
    /** Where its audio came from: an upload or URL (`file`), or a live session (`realtime`, issue 20). */
    source: text('source', { enum: ['file', 'realtime'] })
      .$type<'file' | 'realtime'>()
      .notNull()
      .default('file'),
    error: text('error'),
    modelId: text('model_id').notNull(),
    options: jsonb('options').$type<TranscriptOptions>().notNull(),
    /** ISO 639-3, once known. */
    languageCode: text('language_code'),
    durationSecs: real('duration_secs'),
    channels: integer('channels'),
    /** The source upload while it waits for its job; removed once the job is done. */
    sourceKey: text('source_key'),
    /** The playable audio (MP3), once made. */
    audioKey: text('audio_key'),
    /** The public API's transcript (without additional formats), once completed. */
    transcript: jsonb('transcript').$type<WireTranscript>(),
    /** Names given to speaker ids (`speaker_0` → "Alice"). */
    speakerNames: jsonb('speaker_names').$type<Record<string, string>>().notNull().default({}),
    /** The credits charged (0 until settled). */
    credits: integer('credits').notNull().default(0),
    requestId: text('request_id').notNull(),
    webhook: boolean('webhook').notNull().default(false),
    webhookId: text('webhook_id'),
    webhookMetadata: jsonb('webhook_metadata').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('transcripts_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id)],
);

export type TranscriptRow = typeof transcripts.$inferSelect;
