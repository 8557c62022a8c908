import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** accounts §3 User.geo_location. */
export interface GeoLocation {
  region?: string | null;
  country?: string | null;
  city?: string | null;
}

/** accounts §3 User.onboarding_survey. */
export interface OnboardingSurvey {
  first_name: string | null;
  role: string | null;
  subrole: string | null;
  timezone: string | null;
  source: string | null;
}

/** accounts §3 User.onboarding_checklist: each item's completion time (unix seconds) once its trigger fired. */
export interface StoredChecklist {
  checklist_id: string;
  /** acknowledged_at: when a client was handed the completion to congratulate on (once; onboarding module). */
  items: { id: string; completed_at: number | null; acknowledged_at?: number | null }[];
  hidden: boolean;
}

/** accounts §4 analytics consent as the user chose it; null means the region's default applies. */
export const ANALYTICS_CONSENT_CHOICES = ['granted', 'denied'] as const;

/** A person with a sign-in. Accounts doc §3 "User". */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  firstName: text('first_name'),
  /** The workspace the user works in now (accounts §3 User.workspace_id). */
  workspaceId: text('workspace_id'),
  isNewUser: boolean('is_new_user').notNull().default(true),
  /** argon2id PHC string; null for accounts made without a password (admin CLI, SSO later). */
  passwordHash: text('password_hash'),
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  /** A public id for share links and the voice library (accounts §3 public_user_id). */
  publicUserId: text('public_user_id')
    .notNull()
    .unique()
    .default(sql`md5(random()::text || clock_timestamp()::text)`),
  /** The name shown on the user's public share pages (history/voices §7 update-public-user-name). */
  publicUserName: text('public_user_name'),
  agreesToProductUpdates: boolean('agrees_to_product_updates').notNull().default(false),
  ccpaOptOut: boolean('ccpa_opt_out').notNull().default(false),
  geoLocation: jsonb('geo_location').$type<GeoLocation>(),
  /** Set by a workspace admin through edit-user-metadata (accounts §3 "User metadata edit"). */
  allowedToExtendCharacterLimit: boolean('allowed_to_extend_character_limit').notNull().default(false),
  maxCharacterLimitExtension: integer('max_character_limit_extension'),
  moderationWarningDismissed: boolean('moderation_warning_dismissed').notNull().default(false),
  isOnboardingCompleted: boolean('is_onboarding_completed').notNull().default(true),
  isOnboardingChecklistCompleted: boolean('is_onboarding_checklist_completed').notNull().default(true),
  referralLinkCode: text('referral_link_code').unique(),
  locale: text('locale'),
  isProducer: boolean('is_producer').notNull().default(false),
  isInProbation: boolean('is_in_probation').notNull().default(false),
  acceptedBipaTerms: boolean('accepted_bipa_terms').notNull().default(false),
  /** When the biometric (BIPA) terms were accepted (accept-bipa-terms). */
  bipaTermsAcceptedAt: timestamp('bipa_terms_accepted_at', { withTimezone: true }),
  /** accounts §3 terms_agreed_to: unix seconds per set of terms (conversational_ai, voice_design, …). */
  termsAgreedTo: jsonb('terms_agreed_to').$type<Record<string, number>>().notNull().default({}),
  onboardingSurvey: jsonb('onboarding_survey').$type<OnboardingSurvey>(),
  onboardingChecklist: jsonb('onboarding_checklist').$type<StoredChecklist>(),
  analyticsConsent: text('analytics_consent', { enum: ANALYTICS_CONSENT_CHOICES }),
  /** The referral record's value the account signed up with (someone else's referral_link_code). */
  referredByCode: text('referred_by_code'),
  /** Where the user came from at sign-up (pre-sign-up / post-registration-user-setup: pid, xid). */
  signupSource: jsonb('signup_source').$type<Record<string, string>>(),
  /** TOTP second factor: the base32 secret; enabled once a code from it was verified. */
  totpSecret: text('totp_secret'),
  totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
  /** The last 30-second step a TOTP code was accepted for: a code is never accepted twice. */
  totpLastStep: integer('totp_last_step'),
  /** SHA-256 of the one backup code that removes the second factor (accounts §3 backup_code_hash). */
  backupCodeHash: text('backup_code_hash'),
  /** Until when the support team may act on the account, after the user granted it (verifySignInRequest). */
  supportAccessUntil: timestamp('support_access_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type UserRow = typeof users.$inferSelect;

/** Devices a user signed in from (record-device-fingerprint), kept as hashes. */
export const userDevices = pgTable(
  'user_devices',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fingerprintHash: text('fingerprint_hash').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.fingerprintHash] })],
);

/**
 * One-use codes mailed in links (accounts §2 account-action landing page, §4 sensitive actions): email
 * verification, password reset, email change and its revert, support-access requests, sensitive-action
 * codes and the product-updates opt-out key. Only the SHA-256 of a code is kept.
 */
export const accountActionCodes = pgTable(
  'account_action_codes',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: [
        'verify_email',
        'reset_password',
        'email_change',
        'email_revert',
        'sign_in_request',
        'sensitive_action',
        'opt_out',
      ],
    }).notNull(),
    codeHash: text('code_hash').notNull().unique(),
    /** The address the code was sent to (the new address for an email change, the old for a revert). */
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** A sensitive-action code is first verified (the link was followed), then used by the action. */
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_action_codes_user_idx').on(t.userId, t.kind)],
);

export type AccountActionCodeRow = typeof accountActionCodes.$inferSelect;
export type AccountActionKind = AccountActionCodeRow['kind'];
