import { SUBSCRIPTION_TIERS } from '@parla/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';

/** Accounts doc §3 "Workspace": the unit that owns data, members and the subscription. */
export const workspaces = pgTable(
  'workspaces',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id),
    /**
     * The plan (accounts §4 tier order; modules/billing owns these columns): the tier, credits used this
     * period and when the count resets.
     */
    tier: text('tier', { enum: SUBSCRIPTION_TIERS }).notNull().default('free'),
    characterCount: integer('character_count').notNull().default(0),
    /** Voices added or edited this period (accounts §9: at most round(1.5 × voice_limit + 50)). */
    voiceAddEditCount: integer('voice_add_edit_count').notNull().default(0),
    /** A month after creation at first; the renewal job moves it on (billing.service runBillingRenewals). */
    nextCharacterCountResetAt: timestamp('next_character_count_reset_at', { withTimezone: true }).default(
      sql`now() + interval '1 month'`,
    ),
    /** accounts §3 Workspace.session_inactivity_timeout (seconds); null = no inactivity sign-out. */
    sessionInactivityTimeout: integer('session_inactivity_timeout'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The renewal job looks up the workspaces whose credits are due a reset.
  (t) => [index('workspaces_next_reset_idx').on(t.nextCharacterCountResetAt)],
);

/** Membership with a role; accounts doc §6: admin and editor. */
export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['admin', 'editor'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index('workspace_members_user_idx').on(t.userId),
  ],
);

export type WorkspaceRow = typeof workspaces.$inferSelect;
