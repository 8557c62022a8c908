import {
  RESOURCE_ROLES,
  SHAREABLE_RESOURCE_TYPES,
  SUBSCRIPTION_TIERS,
  WORKSPACE_ROLES,
} from '@parla/contracts';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';

/** Accounts doc §3 "Workspace": the unit that owns data, members and the subscription. */
export const workspaces = pgTable('workspaces', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  ownerId: text('owner_id')
    .notNull()
    .references(() => users.id),
  /**
   * The plan (accounts §4 tier order): seats and every generation read it; billing sets it
   * (`setWorkspaceTier`). Credits spent live with credits, the period's schedule with billing.
   */
  tier: text('tier', { enum: SUBSCRIPTION_TIERS }).notNull().default('free'),
  /** accounts §3 Workspace.session_inactivity_timeout (seconds); null = no inactivity sign-out. */
  sessionInactivityTimeout: integer('session_inactivity_timeout'),
  /** accounts §3 Workspace.max_seats: read only for trial and enterprise (§9); the tier decides otherwise. */
  maxSeats: integer('max_seats'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Membership with a role. accounts §6: admin and editor, where an editor has every admin right; `member`
 * is the plain seat (the public API's `workspace_member`) that has neither. A locked member keeps the
 * seat but cannot act in the workspace.
 */
export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: WORKSPACE_ROLES }).notNull(),
    isLocked: boolean('is_locked').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index('workspace_members_user_idx').on(t.userId),
  ],
);

export type WorkspaceRow = typeof workspaces.$inferSelect;

/** accounts §3 "Workspace invite": an emailed code that adds the address to the workspace on accept. */
export const workspaceInvites = pgTable(
  'workspace_invites',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    /** SHA-256 of the code in the mailed link. */
    codeHash: text('code_hash').notNull().unique(),
    role: text('role', { enum: WORKSPACE_ROLES }).notNull(),
    /** Groups the invitee joins on accept. */
    groupIds: jsonb('group_ids').$type<string[]>().notNull().default([]),
    invitedByUserId: text('invited_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['pending', 'accepted', 'declined', 'revoked'] })
      .notNull()
      .default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('workspace_invites_workspace_idx').on(t.workspaceId, t.status),
    index('workspace_invites_email_idx').on(t.email),
  ],
);

/** A named set of members that resources can be shared with (history/voices §6 group permissions). */
export const workspaceGroups = pgTable(
  'workspace_groups',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('workspace_groups_workspace_idx').on(t.workspaceId)],
);

export const workspaceGroupMembers = pgTable(
  'workspace_group_members',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => workspaceGroups.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.userId] }),
    index('workspace_group_members_user_idx').on(t.userId),
  ],
);

/**
 * A role on one resource granted to a member, a group, or everyone in the workspace (`default`), through
 * `/v1/workspace/resources/{id}/share`. The resource's creator always holds admin.
 */
export const resourceShares = pgTable(
  'resource_shares',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    resourceType: text('resource_type', { enum: SHAREABLE_RESOURCE_TYPES }).notNull(),
    resourceId: text('resource_id').notNull(),
    principalType: text('principal_type', { enum: ['user', 'group', 'default'] }).notNull(),
    /** The user or group id; the workspace id for `default`. */
    principalId: text('principal_id').notNull(),
    role: text('role', { enum: RESOURCE_ROLES }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('resource_shares_target_idx').on(
      t.resourceType,
      t.resourceId,
      t.principalType,
      t.principalId,
    ),
    index('resource_shares_principal_idx').on(t.principalType, t.principalId),
  ],
);
