import type { VoiceProfile } from '@parla/audio';
import type { VoiceSettings } from '@parla/contracts';
import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * A voice design preview (`generated_voice_id`): what `POST /v1/text-to-voice` saves as a voice. Kept a
 * day, in the workspace that designed it.
 */
export const generatedVoices = pgTable(
  'generated_voices',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    description: text('description').notNull(),
    language: text('language').notNull(),
    baseVoiceId: text('base_voice_id').notNull(),
    profile: jsonb('profile').$type<VoiceProfile>().notNull(),
    /** The Kokoro blend the preview was spoken with, which the saved voice keeps; null: a classic design. */
    kokoroVoice: text('kokoro_voice'),
    labels: jsonb('labels').$type<Record<string, string>>().notNull(),
    /** The settings the saved voice starts with (its pace as `speed`). */
    settings: jsonb('settings').$type<VoiceSettings>().notNull(),
    audioKey: text('audio_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('generated_voices_workspace_idx').on(t.workspaceId, t.createdAt)],
);
