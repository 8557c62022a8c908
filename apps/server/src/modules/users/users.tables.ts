import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * A person with a sign-in (accounts doc §3 "User"): the identity every module reads. What other modules
 * keep about a user lives in their own tables (issue 26 item 3): the second factor with auth, onboarding,
 * consent, referrals with growth, devices with account.
 */
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
  /** Set by a workspace admin through edit-user-metadata (accounts §3 "User metadata edit"). */
  allowedToExtendCharacterLimit: boolean('allowed_to_extend_character_limit').notNull().default(false),
  maxCharacterLimitExtension: integer('max_character_limit_extension'),
  moderationWarningDismissed: boolean('moderation_warning_dismissed').notNull().default(false),
  locale: text('locale'),
  isProducer: boolean('is_producer').notNull().default(false),
  isInProbation: boolean('is_in_probation').notNull().default(false),
  /** Until when the support team may act on the account, after the user granted it (verifySignInRequest). */
  supportAccessUntil: timestamp('support_access_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type UserRow = typeof users.$inferSelect;
