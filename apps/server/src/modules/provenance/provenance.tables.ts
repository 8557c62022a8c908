import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { workspaces } from '../workspaces/workspaces.tables';

/** What the installation generates and keeps a fingerprint of (docs/decisions/0018). */
export const GENERATED_AUDIO_SOURCES = [
  'text_to_speech',
  'text_to_speech_stream',
  'text_to_speech_socket',
  'dialogue',
  'speech_to_speech',
  'voice_design',
  'voice_preview',
] as const;
export type GeneratedAudioSource = (typeof GENERATED_AUDIO_SOURCES)[number];

/**
 * One output of the installation whose landmarks are kept, so that a recording of it is recognised
 * (issue 26 item 7: professional-clone verification refuses one). No text and no audio: only where it came
 * from. The id is a number, not a text id: each of its landmarks carries it.
 */
export const generatedAudio = pgTable(
  'generated_audio',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Null for the installation's own output (the premade voices' previews); else gone with the workspace. */
    workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    source: text('source', { enum: GENERATED_AUDIO_SOURCES }).notNull(),
    /** What it is the audio of, when the same audio is made again (a voice's preview): kept once. */
    subject: text('subject'),
    durationMs: integer('duration_ms').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('generated_audio_workspace_idx').on(t.workspaceId),
    index('generated_audio_subject_idx').on(t.subject),
  ],
);

/**
 * The landmarks of each generated audio (fingerprint.ts in @parla/audio): a hash of two spectrogram
 * peaks and the frame (16 ms) of the first. Looked up by hash, whatever the workspace; removed with their
 * audio (the index on audio_id makes that cascade a lookup, and btree deduplication keeps it small).
 */
export const generatedAudioLandmarks = pgTable(
  'generated_audio_landmarks',
  {
    audioId: integer('audio_id')
      .notNull()
      .references(() => generatedAudio.id, { onDelete: 'cascade' }),
    hash: integer('hash').notNull(),
    frame: integer('frame').notNull(),
  },
  (t) => [
    index('generated_audio_landmarks_hash_idx').on(t.hash),
    index('generated_audio_landmarks_audio_idx').on(t.audioId),
  ],
);
