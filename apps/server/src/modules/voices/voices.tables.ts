import type { VoiceProfile } from '@parla/audio';
import type { VoiceSettings } from '@parla/contracts';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/** A sample's speaker separation as stored: the API's shape plus each speaker's profile. */
export interface StoredSeparation {
  status: 'pending' | 'completed' | 'failed';
  speakers: Record<
    string,
    {
      speaker_id: string;
      duration_secs: number;
      utterances: { start: number; end: number }[];
      profile: VoiceProfile;
    }
  >;
  selected_speaker_ids: string[];
}

export const OWN_VOICE_CATEGORIES = ['cloned', 'generated', 'professional'] as const;
export const SHARING_STATUSES = ['enabled', 'disabled', 'copied', 'copied_disabled'] as const;

/**
 * A workspace's own voice (history/voices §3 "Voice"): an instant clone, a designed voice, a professional
 * clone, or a copy of a library voice. The offline engines speak it with the renditions of a premade
 * base voice, shifted in pitch and formants towards `profile` (modules/voices/speaking-voice.ts).
 * A built-in voice (issue 18 item 6) is the installation's own: no workspace, shared in the library,
 * written only by the seed (modules/voices/built-in-voices.service.ts).
 */
export const voices = pgTable(
  'voices',
  {
    id: text('id').primaryKey(),
    /** The workspace that owns the voice; null for a built-in voice, which the installation owns. */
    workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description'),
    labels: jsonb('labels').$type<Record<string, string>>().notNull().default({}),
    category: text('category', { enum: OWN_VOICE_CATEGORIES }).notNull(),
    /** ISO 639-1: the language the base voice speaks. */
    language: text('language').notNull(),
    /** The premade voice whose engine renditions speak this voice. */
    baseVoiceId: text('base_voice_id').notNull(),
    /**
     * The Kokoro voice it speaks with on the neural model (issue 27 item 5): a blend of style vectors
     * (`af_heart*0.6+af_bella*0.4`, @parla/contracts kokoro-blend.ts) chosen when it was designed or cloned,
     * its speech moved from the blend's sound to `profile`. Null for a voice made before, or in a language
     * Kokoro does not speak: it keeps its base's classic engine (speaking-voice.ts ownSpeaking).
     */
    kokoroVoice: text('kokoro_voice'),
    /** What the voice should sound like; null for a professional clone not trained yet. */
    profile: jsonb('profile').$type<VoiceProfile>(),
    /** Its own settings; null means the defaults. */
    settings: jsonb('settings').$type<VoiceSettings>(),
    /** A professional clone's training state per model (`fine_tuning.state`). */
    fineTuningState: text('fine_tuning_state', {
      enum: ['not_started', 'queued', 'fine_tuning', 'fine_tuned', 'failed'],
    }),
    /** §3 sharing.status; null while never shared. */
    sharingStatus: text('sharing_status', { enum: SHARING_STATUSES }),
    /** When added from the library: the shared voice it copies. */
    originalVoiceId: text('original_voice_id'),
    /** The public id of whoever shared the original (the library's `public_owner_id`). */
    publicOwnerId: text('public_owner_id'),
    liveModerationEnabled: boolean('live_moderation_enabled').notNull().default(false),
    freeUsersAllowed: boolean('free_users_allowed').notNull().default(true),
    clonedByCount: integer('cloned_by_count').notNull().default(0),
    sharedAt: timestamp('shared_at', { withTimezone: true }),
    /** §3 safety_control: BAN or CAPTCHA set by moderation; null for none. */
    safetyControl: text('safety_control', { enum: ['BAN', 'CAPTCHA'] }),
    requiresVerification: boolean('requires_verification').notNull().default(false),
    isVerified: boolean('is_verified').notNull().default(false),
    /** Why verification attempts failed, oldest first (§3 voice_verification.verification_failures). */
    verificationFailures: jsonb('verification_failures').$type<string[]>().notNull().default([]),
    verificationAttempts: integer('verification_attempts').notNull().default(0),
    /** The text the owner was last asked to read aloud, and when (professional clone captcha). */
    captchaText: text('captcha_text'),
    captchaIssuedAt: timestamp('captcha_issued_at', { withTimezone: true }),
    manualVerificationRequestedAt: timestamp('manual_verification_requested_at', { withTimezone: true }),
    /** A professional clone's training progress, 0–1. */
    fineTuningProgress: real('fine_tuning_progress'),
    /**
     * The model id the last training was asked for, as the client sent it (`POST …/train` `model_id`, a
     * public id such as eleven_multilingual_v2); null until trained, which reads as the default model.
     */
    fineTuningModelId: text('fine_tuning_model_id'),
    /** One of the installation's curated library voices (listed as `featured`); no user changes it. */
    builtIn: boolean('built_in').notNull().default(false),
    /** A built-in voice: the hash of its definition as last seeded (a changed definition updates it). */
    builtInHash: text('built_in_hash'),
    /** What its preview says (`{name}` is its name); null for the language's usual sentence. */
    previewText: text('preview_text'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A voice belongs to a workspace, or it is built in: never both, never neither.
    check('voices_owner_check', sql`(${t.workspaceId} is null) = ${t.builtIn}`),
    index('voices_workspace_created_idx').on(t.workspaceId, t.createdAt),
    index('voices_shared_idx').on(t.sharedAt).where(sql`${t.sharingStatus} = 'enabled'`),
    index('voices_original_idx').on(t.originalVoiceId),
  ],
);

export type VoiceRow = typeof voices.$inferSelect;

/** An uploaded sample of a voice (`samples` in the Voice response), kept as uploaded. */
export const voiceSamples = pgTable(
  'voice_samples',
  {
    id: text('id').primaryKey(),
    voiceId: text('voice_id')
      .notNull()
      .references(() => voices.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** sha-256 of the bytes, hex. */
    hash: text('hash').notNull(),
    durationSecs: real('duration_secs').notNull(),
    storageKey: text('storage_key').notNull(),
    /** The sample's own profile; the voice's is merged from these. */
    profile: jsonb('profile').$type<VoiceProfile>(),
    /** Professional clones: noise removal asked for this sample, and its trim (ms from the start). */
    removeBackgroundNoise: boolean('remove_background_noise').notNull().default(false),
    trimStartMs: integer('trim_start_ms'),
    trimEndMs: integer('trim_end_ms'),
    /** Speaker separation: its status, the speakers found (with their profiles) and those selected. */
    speakerSeparation: jsonb('speaker_separation').$type<StoredSeparation>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('voice_samples_voice_idx').on(t.voiceId)],
);

export type VoiceSampleRow = typeof voiceSamples.$inferSelect;

/** Voice collections (history/voices §2 voice-lab/collections): named groups of a workspace's voices. */
export const voiceCollections = pgTable(
  'voice_collections',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The public API's collection icon (a name the client chooses). */
    icon: text('icon').notNull().default(''),
    /** Voice ids (own or premade), in the order they were added. */
    voiceIds: jsonb('voice_ids').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('voice_collections_workspace_idx').on(t.workspaceId)],
);

/**
 * Voices a workspace added or edited this period (accounts §9: at most round(1.5 × voice_limit + 50)),
 * back to 0 when its credits start afresh (`credits.period_started`). No row: none yet.
 */
export const voiceAddEditCounts = pgTable('voice_add_edit_counts', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  count: integer('count').notNull().default(0),
});
