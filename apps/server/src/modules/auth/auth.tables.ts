import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * Refresh tokens, stored as SHA-256 hashes (the token itself lives only in the browser's httpOnly
 * cookie). Each sign-in starts a family; a refresh rotates the token within it. A token presented again
 * within seconds of its rotation gets the same successor (derived from it, refresh-tokens.service);
 * later, it was stolen or replayed: the whole family is revoked.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when the token was exchanged for its successor. */
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId), index('refresh_tokens_user_idx').on(t.userId)],
);

/** The key that signs access tokens when AUTH_SECRET is not set: made once, shared by all processes. */
export const authSigningKeys = pgTable('auth_signing_keys', {
  id: text('id').primaryKey(),
  secret: text('secret').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Single-use tokens (issue 20, `POST /v1/single-use-token/{token_type}`): a browser opens one socket of
 * the token's type with it instead of an API key. Stored as SHA-256 hashes; `used_at` is set by the one
 * UPDATE that accepts it, so a token opens one socket at most, across processes.
 */
export const singleUseTokens = pgTable(
  'single_use_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    tokenType: text('token_type').notNull(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The API key that asked for it (its uses are the key's), or null for a signed-in session. */
    apiKeyId: text('api_key_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('single_use_tokens_expiry_idx').on(t.expiresAt)],
);

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

/**
 * A user's second factor (accounts §3 totp_mfa_factor, backup_code_hash): the TOTP secret, enabled once a
 * code from it was verified, and the one backup code that removes it. No row: no second factor.
 */
export const authSecondFactors = pgTable('auth_second_factors', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The base32 secret. */
  totpSecret: text('totp_secret'),
  totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
  /** The last 30-second step a TOTP code was accepted for: a code is never accepted twice. */
  totpLastStep: integer('totp_last_step'),
  /** SHA-256 of the one backup code that removes the second factor. */
  backupCodeHash: text('backup_code_hash'),
});

export type SecondFactorRow = typeof authSecondFactors.$inferSelect;

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
