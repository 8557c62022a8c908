import { randomBytes } from 'node:crypto';
import {
  hasAdminRights,
  isEnterpriseTier,
  type PendingInvite,
  type ReceivedInvite,
  seatTypeOf,
  tierLimits,
  type WorkspaceMember,
  type WorkspaceRole,
  type WorkspaceSummary,
} from '@parla/contracts';
import { and, asc, count, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { type Clock, toUnixSeconds } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { workspaceInvitationsSent } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import { sha256Hex } from '../../platform/secrets';
import type { Mailer } from '../../providers/mail/mailer';
import { apiKeys } from '../api-keys/api-keys.tables';
import { setUserWorkspace } from '../users';
import { type UserRow, users } from '../users/users.tables';
import { workspaceInviteMail } from './workspace-mail';
import { getMemberRole, insertWorkspaceWithOwner } from './workspaces.store';
import {
  resourceShares,
  type WorkspaceRow,
  workspaceGroupMembers,
  workspaceGroups,
  workspaceInvites,
  workspaceMembers,
  workspaces,
} from './workspaces.tables';

export interface WorkspaceDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  mailer: Mailer;
  logger: Logger;
  publicUrl: string;
}

export interface WorkspaceCaller {
  userId: string;
  workspaceId: string;
}

/** An invitation stays good for a week. */
const INVITE_TTL_MS = 7 * 24 * 3600_000;

/** accounts §9: the tier's seats; the server's own value counts only for trial and enterprise. */
export function maxSeatsOf(workspace: Pick<WorkspaceRow, 'tier' | 'maxSeats'>): number {
  if (isEnterpriseTier(workspace.tier) && workspace.maxSeats !== null) return workspace.maxSeats;
  return tierLimits[workspace.tier].maxSeats;
}

async function loadWorkspace(db: Db, workspaceId: string, lock = false): Promise<WorkspaceRow> {
  const query = db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('unauthorized', 'Your workspace no longer exists. Please sign in again.');
  return row;
}

/** The caller's role; refuses one who is not (or no longer) a member. */
async function roleOf(db: Db, caller: WorkspaceCaller): Promise<WorkspaceRole> {
  const role = await getMemberRole(db, caller.workspaceId, caller.userId);
  if (!role) throw new AppError('unauthorized', 'You are no longer a member of this workspace.');
  return role;
}

/** Refuses a caller without the admin rights (accounts §6: admin or editor). */
export async function requireWorkspaceAdmin(db: Db, caller: WorkspaceCaller): Promise<WorkspaceRole> {
  const role = await roleOf(db, caller);
  if (!hasAdminRights(role)) {
    throw new AppError('forbidden', 'Only workspace admins can do this.');
  }
  return role;
}

/** Members plus pending, unexpired invites: each holds a seat. */
async function seatsUsed(db: Db, workspaceId: string, now: Date): Promise<number> {
  const [members] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId));
  const [invites] = await db
    .select({ n: sql<number>`count(distinct ${workspaceInvites.email})::int` })
    .from(workspaceInvites)
    .where(
      and(
        eq(workspaceInvites.workspaceId, workspaceId),
        eq(workspaceInvites.status, 'pending'),
        gt(workspaceInvites.expiresAt, now),
      ),
    );
  return (members?.n ?? 0) + (invites?.n ?? 0);
}

function seatLimit(max: number): AppError {
  return new AppError(
    'seat_limit_reached',
    `Your plan has ${max} ${max === 1 ? 'seat' : 'seats'} and all are taken. Upgrade the plan, or remove a member or an invitation first.`,
  );
}

export async function getWorkspaceSummary(
  deps: WorkspaceDeps,
  caller: WorkspaceCaller,
): Promise<WorkspaceSummary> {
  const role = await roleOf(deps.db, caller);
  const workspace = await loadWorkspace(deps.db, caller.workspaceId);
  return {
    workspace_id: workspace.id,
    name: workspace.name,
    owner_id: workspace.ownerId,
    is_owner: workspace.ownerId === caller.userId,
    role,
    seat_type: seatTypeOf(role),
    max_seats: maxSeatsOf(workspace),
    seats_used: await seatsUsed(deps.db, workspace.id, deps.clock.now()),
    session_inactivity_timeout: workspace.sessionInactivityTimeout,
    created_at_unix: toUnixSeconds(workspace.createdAt),
  };
}

export async function updateWorkspaceSettings(
  deps: WorkspaceDeps,
  caller: WorkspaceCaller,
  input: { name?: string; session_inactivity_timeout?: number | null },
): Promise<WorkspaceSummary> {
  await requireWorkspaceAdmin(deps.db, caller);
  const changes: Partial<typeof workspaces.$inferInsert> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.session_inactivity_timeout !== undefined) {
    changes.sessionInactivityTimeout = input.session_inactivity_timeout;
  }
  if (Object.keys(changes).length > 0) {
    await deps.db.update(workspaces).set(changes).where(eq(workspaces.id, caller.workspaceId));
  }
  return getWorkspaceSummary(deps, caller);
}

export async function listMembers(deps: WorkspaceDeps, caller: WorkspaceCaller): Promise<WorkspaceMember[]> {
  await roleOf(deps.db, caller);
  const workspace = await loadWorkspace(deps.db, caller.workspaceId);
  const rows = await deps.db
    .select({ member: workspaceMembers, email: users.email, firstName: users.firstName })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, caller.workspaceId))
    .orderBy(asc(workspaceMembers.createdAt), asc(users.email));
  return rows.map(({ member, email, firstName }) => ({
    user_id: member.userId,
    email,
    first_name: firstName,
    seat_type: seatTypeOf(member.role),
    is_owner: member.userId === workspace.ownerId,
    is_locked: member.isLocked,
    role: member.role,
    joined_at_unix: toUnixSeconds(member.createdAt),
  }));
}

/** A member of the caller's workspace by email; 400 when the address has no seat here. */
async function memberByEmail(
  db: Db,
  workspaceId: string,
  email: string,
): Promise<{ user: UserRow; role: WorkspaceRole; isLocked: boolean }> {
  const [row] = await db
    .select({ user: users, role: workspaceMembers.role, isLocked: workspaceMembers.isLocked })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(users.email, email.toLowerCase())));
  if (!row) throw new AppError('bad_request', `${email} is not a member of this workspace.`);
  return row;
}

export async function updateMember(
  deps: WorkspaceDeps,
  caller: WorkspaceCaller,
  input: { email: string; role?: WorkspaceRole; isLocked?: boolean },
): Promise<void> {
  await requireWorkspaceAdmin(deps.db, caller);
  await deps.db.transaction(async (tx) => {
    const workspace = await loadWorkspace(tx, caller.workspaceId, true);
    const target = await memberByEmail(tx, workspace.id, input.email);
    const isOwner = target.user.id === workspace.ownerId;
    if (isOwner && ((input.role && input.role !== 'admin') || input.isLocked)) {
      throw new AppError(
        'bad_request',
        'The owner of the workspace stays an unlocked admin; transfer the ownership first.',
      );
    }
    if (target.user.id === caller.userId && input.isLocked) {
      throw new AppError('bad_request', 'You cannot lock yourself out of the workspace.');
    }
    const changes: Partial<typeof workspaceMembers.$inferInsert> = {};
    if (input.role) changes.role = input.role;
    if (input.isLocked !== undefined) changes.isLocked = input.isLocked;
    if (Object.keys(changes).length === 0) return;
    await tx
      .update(workspaceMembers)
      .set(changes)
      .where(
        and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.userId, target.user.id)),
      );
    // A locked member works elsewhere until unlocked: their next token names another workspace.
    if (input.isLocked) await moveOutIfCurrent(tx, target.user, workspace.id);
  });
}

/**
 * If the user works in this workspace now, moves them to another of theirs (one they own first), or to a
 * new workspace of their own when they have none.
 */
async function moveOutIfCurrent(db: Db, user: UserRow, leaving: string): Promise<void> {
  if (user.workspaceId !== leaving) return;
  await setUserWorkspace(db, user.id, await fallbackWorkspace(db, user, leaving));
}

/** Another workspace where the user holds an unlocked seat (one they own first), or a new one of theirs. */
async function fallbackWorkspace(db: Db, user: UserRow, leaving: string | null): Promise<string> {
  const [other] = await db
    .select({ id: workspaces.id })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.userId, user.id),
        leaving === null ? undefined : ne(workspaceMembers.workspaceId, leaving),
        eq(workspaceMembers.isLocked, false),
      ),
    )
    .orderBy(sql`${workspaces.ownerId} = ${user.id} desc`, asc(workspaceMembers.createdAt))
    .limit(1);
  if (other) return other.id;
  const made = await insertWorkspaceWithOwner(db, {
    id: newId(),
    name: user.firstName ? `${user.firstName}'s Workspace` : 'My Workspace',
    ownerId: user.id,
  });
  return made.id;
}

/**
 * The workspace a new token names: the user's current one while they hold an unlocked seat there, else
 * (removed or locked meanwhile — even by a change that raced a switch) another of theirs, made current.
 */
export async function workspaceForToken(db: Db, user: UserRow): Promise<string> {
  if (user.workspaceId && (await activeMembership(db, user.workspaceId, user.id))) return user.workspaceId;
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(users).where(eq(users.id, user.id)).for('update');
    if (!row) throw new AppError('unauthorized', 'Your session has expired. Please sign in again.');
    if (row.workspaceId && (await activeMembership(tx, row.workspaceId, row.id))) return row.workspaceId;
    const next = await fallbackWorkspace(tx, row, row.workspaceId);
    await setUserWorkspace(tx, row.id, next);
    return next;
  });
}

/**
 * Removes a member: their seat, their groups here, everything shared with them here and their API keys
 * for this workspace go; what they made stays with the workspace (its admins hold it).
 */
export async function removeMember(
  deps: WorkspaceDeps,
  caller: WorkspaceCaller,
  email: string,
): Promise<void> {
  await requireWorkspaceAdmin(deps.db, caller);
  await deps.db.transaction(async (tx) => {
    const workspace = await loadWorkspace(tx, caller.workspaceId, true);
    const target = await memberByEmail(tx, workspace.id, email);
    if (target.user.id === workspace.ownerId) {
      throw new AppError('bad_request', 'The owner cannot be removed; transfer the ownership first.');
    }
    await tx
      .delete(workspaceMembers)
      .where(
        and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.userId, target.user.id)),
      );
    await tx
      .delete(workspaceGroupMembers)
      .where(
        and(
          eq(workspaceGroupMembers.userId, target.user.id),
          inArray(
            workspaceGroupMembers.groupId,
            tx
              .select({ id: workspaceGroups.id })
              .from(workspaceGroups)
              .where(eq(workspaceGroups.workspaceId, workspace.id)),
          ),
        ),
      );
    await tx
      .delete(resourceShares)
      .where(
        and(
          eq(resourceShares.workspaceId, workspace.id),
          eq(resourceShares.principalType, 'user'),
          eq(resourceShares.principalId, target.user.id),
        ),
      );
    await tx
      .update(apiKeys)
      .set({ disabledAt: deps.clock.now() })
      .where(
        and(
          eq(apiKeys.userId, target.user.id),
          eq(apiKeys.workspaceId, workspace.id),
          isNull(apiKeys.disabledAt),
        ),
      );
    await moveOutIfCurrent(tx, target.user, workspace.id);
  });
}

export async function transferOwnership(
  deps: WorkspaceDeps,
  caller: WorkspaceCaller,
  email: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const workspace = await loadWorkspace(tx, caller.workspaceId, true);
    if (workspace.ownerId !== caller.userId) {
      throw new AppError('forbidden', 'Only the owner of the workspace can transfer its ownership.');
    }
    const target = await memberByEmail(tx, workspace.id, email);
    if (target.user.id === caller.userId) return;
    await tx.update(workspaces).set({ ownerId: target.user.id }).where(eq(workspaces.id, workspace.id));
    await tx
      .update(workspaceMembers)
      .set({ role: 'admin', isLocked: false })
      .where(
        and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.userId, target.user.id)),
      );
  });
}

// ---- Invitations ---------------------------------------------------------------------------------------

export async function inviteMembers(
  deps: WorkspaceDeps,
  caller: WorkspaceCaller,
  input: { emails: string[]; role: WorkspaceRole; groupIds: string[] },
): Promise<void> {
  await requireWorkspaceAdmin(deps.db, caller);
  const emails = [...new Set(input.emails.map((e) => e.toLowerCase()))];
  const now = deps.clock.now();
  const sent = await deps.db.transaction(async (tx) => {
    const workspace = await loadWorkspace(tx, caller.workspaceId, true);
    if (input.groupIds.length > 0) {
      const groups = await tx
        .select({ id: workspaceGroups.id })
        .from(workspaceGroups)
        .where(
          and(eq(workspaceGroups.workspaceId, workspace.id), inArray(workspaceGroups.id, input.groupIds)),
        );
      if (groups.length !== new Set(input.groupIds).size) {
        throw new AppError(
          'resource_not_found',
          'A group of this invitation does not exist in the workspace.',
        );
      }
    }
    const members = await tx
      .select({ email: users.email })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .where(and(eq(workspaceMembers.workspaceId, workspace.id), inArray(users.email, emails)));
    if (members[0])
      throw new AppError('bad_request', `${members[0].email} is already a member of this workspace.`);
    const pending = await tx
      .select({ email: workspaceInvites.email })
      .from(workspaceInvites)
      .where(
        and(
          eq(workspaceInvites.workspaceId, workspace.id),
          eq(workspaceInvites.status, 'pending'),
          gt(workspaceInvites.expiresAt, now),
          inArray(workspaceInvites.email, emails),
        ),
      );
    // A new invitation to an address already invited replaces the old one and takes no new seat.
    const newSeats = emails.length - new Set(pending.map((p) => p.email)).size;
    const max = maxSeatsOf(workspace);
    if ((await seatsUsed(tx, workspace.id, now)) + newSeats > max) throw seatLimit(max);
    await tx
      .update(workspaceInvites)
      .set({ status: 'revoked', respondedAt: now })
      .where(
        and(
          eq(workspaceInvites.workspaceId, workspace.id),
          eq(workspaceInvites.status, 'pending'),
          inArray(workspaceInvites.email, emails),
        ),
      );
    const inviter = await tx
      .select({ email: users.email, firstName: users.firstName })
      .from(users)
      .where(eq(users.id, caller.userId));
    const invites = emails.map((email) => ({
      email,
      id: newId(),
      code: randomBytes(32).toString('base64url'),
    }));
    await tx.insert(workspaceInvites).values(
      invites.map((invite) => ({
        id: invite.id,
        workspaceId: workspace.id,
        email: invite.email,
        codeHash: sha256Hex(invite.code),
        role: input.role,
        groupIds: [...new Set(input.groupIds)],
        invitedByUserId: caller.userId,
        expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
      })),
    );
    return {
      invites,
      workspaceName: workspace.name,
      inviter: inviter[0]?.firstName || inviter[0]?.email || 'A member',
    };
  });
  await deps.events.publish(workspaceInvitationsSent, {
    workspaceId: caller.workspaceId,
    workspaceName: sent.workspaceName,
    inviter: sent.inviter,
    emails: sent.invites.map((i) => i.email),
  });
  for (const [index, invite] of sent.invites.entries()) {
    const link = new URL('/app/settings/workspace-invites', `${deps.publicUrl}/`);
    link.searchParams.set('invite_code', invite.code);
    try {
      await deps.mailer.send(
        workspaceInviteMail({
          to: invite.email,
          workspaceName: sent.workspaceName,
          inviter: sent.inviter,
          link: link.toString(),
        }),
      );
    } catch (error) {
      // Invitations nobody received (this one and those not sent yet) must not hold seats.
      await deps.db
        .update(workspaceInvites)
        .set({ status: 'revoked', respondedAt: deps.clock.now() })
        .where(
          inArray(
            workspaceInvites.id,
            sent.invites.slice(index).map((i) => i.id),
          ),
        );
      deps.logger.error({ err: error }, 'workspace invite mail could not be sent');
      throw new AppError(
        'service_unavailable',
        `The invitation to ${invite.email} could not be sent. Please try again later.`,
        {
          cause: error,
        },
      );
    }
  }
}

export async function deleteInvite(
  deps: WorkspaceDeps,
  caller: WorkspaceCaller,
  email: string,
): Promise<void> {
  await requireWorkspaceAdmin(deps.db, caller);
  const withdrawn = await deps.db
    .update(workspaceInvites)
    .set({ status: 'revoked', respondedAt: deps.clock.now() })
    .where(
      and(
        eq(workspaceInvites.workspaceId, caller.workspaceId),
        eq(workspaceInvites.email, email.toLowerCase()),
        eq(workspaceInvites.status, 'pending'),
      ),
    )
    .returning({ id: workspaceInvites.id });
  if (withdrawn.length === 0) {
    throw new AppError('resource_not_found', `There is no pending invitation for ${email}.`);
  }
}

export async function listPendingInvites(
  deps: WorkspaceDeps,
  caller: WorkspaceCaller,
): Promise<z.infer<typeof PendingInvite>[]> {
  await requireWorkspaceAdmin(deps.db, caller);
  const rows = await deps.db
    .select()
    .from(workspaceInvites)
    .where(
      and(
        eq(workspaceInvites.workspaceId, caller.workspaceId),
        eq(workspaceInvites.status, 'pending'),
        gt(workspaceInvites.expiresAt, deps.clock.now()),
      ),
    )
    .orderBy(asc(workspaceInvites.createdAt));
  return rows.map((row) => ({
    invite_id: row.id,
    email: row.email,
    role: row.role,
    seat_type: seatTypeOf(row.role),
    created_at_unix: toUnixSeconds(row.createdAt),
    expires_at_unix: toUnixSeconds(row.expiresAt),
  }));
}

/** Pending invitations to the caller's address, once that address is verified. */
export async function listReceivedInvites(deps: WorkspaceDeps, userId: string): Promise<ReceivedInvite[]> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  if (!user?.emailVerifiedAt) return [];
  const inviter = sql<
    string | null
  >`(select coalesce(nullif(u.first_name, ''), u.email) from users u where u.id = ${workspaceInvites.invitedByUserId})`;
  const rows = await deps.db
    .select({ invite: workspaceInvites, workspaceName: workspaces.name, inviter })
    .from(workspaceInvites)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvites.workspaceId))
    .where(
      and(
        eq(workspaceInvites.email, user.email),
        eq(workspaceInvites.status, 'pending'),
        gt(workspaceInvites.expiresAt, deps.clock.now()),
      ),
    )
    .orderBy(asc(workspaceInvites.createdAt));
  return rows.map(({ invite, workspaceName, inviter }) => ({
    invite_id: invite.id,
    workspace_id: invite.workspaceId,
    workspace_name: workspaceName,
    invited_by: inviter,
    role: invite.role,
    expires_at_unix: toUnixSeconds(invite.expiresAt),
  }));
}

const GONE = 'This invitation has expired or was withdrawn. Ask the workspace admin for a new one.';

function inviteWhere(answer: { invite_code?: string | undefined; invite_id?: string | undefined }) {
  return answer.invite_code
    ? eq(workspaceInvites.codeHash, sha256Hex(answer.invite_code))
    : eq(workspaceInvites.id, answer.invite_id ?? '');
}

/** The invitation an answer names, locked; only the invited address may answer it. */
async function inviteToAnswer(
  db: Db,
  user: UserRow,
  answer: { invite_code?: string | undefined; invite_id?: string | undefined },
  now: Date,
) {
  const [invite] = await db.select().from(workspaceInvites).where(inviteWhere(answer)).for('update');
  // An invite found by id is only answerable by its verified addressee; unknown reads as gone.
  if (!invite || (!answer.invite_code && (invite.email !== user.email || !user.emailVerifiedAt))) {
    throw new AppError('invalid_action_code', GONE);
  }
  if (invite.status !== 'pending' || invite.expiresAt <= now) throw new AppError('invalid_action_code', GONE);
  if (invite.email !== user.email) {
    throw new AppError(
      'forbidden',
      `This invitation was sent to ${invite.email}. Sign in with that address to answer it.`,
    );
  }
  return invite;
}

/**
 * Joins the inviting workspace with the invited role and groups and makes it the user's current one
 * (accounts §4: the client then forces a token refresh, whose token names it).
 */
export async function acceptInvite(
  deps: WorkspaceDeps,
  userId: string,
  answer: { invite_code?: string | undefined; invite_id?: string | undefined },
): Promise<string> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId));
    if (!user) throw new AppError('unauthorized', 'Sign in to answer the invitation.');
    // The workspace row first, then the invitation: the order inviteMembers takes them in.
    const [named] = await tx
      .select({ workspaceId: workspaceInvites.workspaceId })
      .from(workspaceInvites)
      .where(inviteWhere(answer));
    if (named) await loadWorkspace(tx, named.workspaceId, true);
    const invite = await inviteToAnswer(tx, user, answer, now);
    const workspace = await loadWorkspace(tx, invite.workspaceId);
    const existing = await getMemberRole(tx, workspace.id, user.id);
    if (!existing) {
      const [members] = await tx
        .select({ n: count() })
        .from(workspaceMembers)
        .where(eq(workspaceMembers.workspaceId, workspace.id));
      // The invitation held a seat; a plan changed since may have fewer.
      const max = maxSeatsOf(workspace);
      if ((members?.n ?? 0) >= max) throw seatLimit(max);
      await tx
        .insert(workspaceMembers)
        .values({ workspaceId: workspace.id, userId: user.id, role: invite.role });
      const groups = invite.groupIds.length
        ? await tx
            .select({ id: workspaceGroups.id })
            .from(workspaceGroups)
            .where(
              and(
                eq(workspaceGroups.workspaceId, workspace.id),
                inArray(workspaceGroups.id, invite.groupIds),
              ),
            )
        : [];
      if (groups.length > 0) {
        await tx
          .insert(workspaceGroupMembers)
          .values(groups.map((g) => ({ groupId: g.id, userId: user.id })))
          .onConflictDoNothing();
      }
    }
    await tx
      .update(workspaceInvites)
      .set({ status: 'accepted', respondedAt: now })
      .where(eq(workspaceInvites.id, invite.id));
    // Following the mailed link proves the mailbox.
    if (!user.emailVerifiedAt && answer.invite_code) {
      await tx.update(users).set({ emailVerifiedAt: now }).where(eq(users.id, user.id));
    }
    await setUserWorkspace(tx, user.id, workspace.id);
    return workspace.id;
  });
}

export async function declineInvite(
  deps: WorkspaceDeps,
  userId: string,
  answer: { invite_code?: string | undefined; invite_id?: string | undefined },
): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId));
    if (!user) throw new AppError('unauthorized', 'Sign in to answer the invitation.');
    const invite = await inviteToAnswer(tx, user, answer, now);
    await tx
      .update(workspaceInvites)
      .set({ status: 'declined', respondedAt: now })
      .where(eq(workspaceInvites.id, invite.id));
  });
}

// ---- The user's workspaces -----------------------------------------------------------------------------

export async function listUserWorkspaces(db: Db, caller: WorkspaceCaller) {
  const rows = await db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      ownerId: workspaces.ownerId,
      role: workspaceMembers.role,
    })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.userId, caller.userId), eq(workspaceMembers.isLocked, false)))
    .orderBy(asc(workspaceMembers.createdAt));
  return rows.map((row) => ({
    workspace_id: row.id,
    name: row.name,
    role: row.role,
    is_owner: row.ownerId === caller.userId,
    is_current: row.id === caller.workspaceId,
  }));
}

export async function switchWorkspace(db: Db, userId: string, workspaceId: string): Promise<void> {
  // One statement: a removal or lock racing the switch cannot leave the user in the workspace.
  const moved = await db
    .update(users)
    .set({ workspaceId })
    .where(
      and(
        eq(users.id, userId),
        sql`exists (select 1 from ${workspaceMembers}
          where ${workspaceMembers.workspaceId} = ${workspaceId}
            and ${workspaceMembers.userId} = ${userId}
            and not ${workspaceMembers.isLocked})`,
      ),
    )
    .returning({ id: users.id });
  if (moved.length === 0) throw new AppError('resource_not_found', 'You are not a member of this workspace.');
}

/** The auth guard's check: the caller still holds an unlocked seat in the workspace their token names. */
export async function activeMembership(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<WorkspaceRole | undefined> {
  const [row] = await db
    .select({ role: workspaceMembers.role, isLocked: workspaceMembers.isLocked })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  return row && !row.isLocked ? row.role : undefined;
}

/**
 * An onRequest hook, after the auth guard: the caller holds the admin rights of the workspace (billing,
 * payment methods, payouts — the workspace's money is its admins' business, accounts §6). The guard read
 * the role when it checked the caller's seat.
 */
export async function adminRightsRequired(request: {
  principal?: { role: WorkspaceRole } | undefined;
}): Promise<void> {
  if (!request.principal) throw new Error('adminRightsRequired: runs after the auth guard');
  if (!hasAdminRights(request.principal.role)) {
    throw new AppError('forbidden', 'Only workspace admins can manage billing.');
  }
}
