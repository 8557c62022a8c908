import { boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** A person with a sign-in. Accounts doc §3 "User"; auth columns arrive with the accounts issue. */
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
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type UserRow = typeof users.$inferSelect;
