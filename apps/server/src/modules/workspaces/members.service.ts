import {
  hasAdminRights,
  isEnterpriseTier,
  tierLimits,
  type WorkspaceMember,
  type WorkspaceRole,
  type WorkspaceSummary,
} from '@parla/contracts';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { workspaceMemberRemoved } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import type { WorkspaceFieldSource } from '../../platform/module';
import type { Mailer } from '../../providers/mail/mailer';
import { setUserWorkspace } from '../users';
import type { UserRow } from '../users/users.tables';
import { removeFromWorkspaceGroups } from './groups.store';
import { countPendingInviteEmails } from './invites.store';
import {
  countMembers,
  deleteMember,
  findMemberByEmail,
  findOtherWorkspace,
  getMembership,
  listMembersWithUsers,
  listUserWorkspaceRows,
  lockUnlockedSeat,
  lockUser,
  updateMemberRow,
} from './members.store';
import { forgetMemberShares } from './sharing.store';
import { toUserWorkspace, toWorkspaceMember, toWorkspaceSummary } from './workspaces.present';
import {
  getMemberRole,
  getWorkspace,
  insertWorkspaceWithOwner,
  setWorkspaceOwner,
  updateWorkspace,
} from './workspaces.store';
import type { WorkspaceRow } from './workspaces.tables';

export interface WorkspaceDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  mailer: Mailer;
  logger: Logger;
  publicUrl: string;
  /** What modules above this one add to the workspace's document (their manifests' `workspaceFields`). */
  fields: readonly WorkspaceFieldSource[];
}

export interface WorkspaceCaller {
  userId: string;
  workspaceId: string;
}

/** accounts §9: the tier's seats; the server's own value counts only for trial and enterprise. */
export function maxSeatsOf(workspace: Pick<WorkspaceRow, 'tier' | 'maxSeats'>): number {
  if (isEnterpriseTier(workspace.tier) && workspace.maxSeats !== null) return workspace.maxSeats;
  return tierLimits[workspace.tier].maxSeats;
}

/** The caller's workspace (locked for the transaction when asked); refuses one that is gone. */
export async function loadWorkspace(db: Db, workspaceId: string, lock = false): Promise<WorkspaceRow> {
  const row = await getWorkspace(db, workspaceId, { lock });
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
export async function seatsUsed(db: Db, workspaceId: string, now: Date): Promise<number> {
  const members = await countMembers(db, workspaceId);
  const invites = await countPendingInviteEmails(db, workspaceId, now);
  return members + invites;
}

/** The refusal when every seat of the plan is taken. */
export function seatLimit(max: number): AppError {
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
  const [used, ...parts] = await Promise.all([
    seatsUsed(deps.db, workspace.id, deps.clock.now()),
    ...deps.fields.map((source) => source(deps.db, workspace.id)),
  ]);
  return {
    ...toWorkspaceSummary(workspace, {
      userId: caller.userId,
      role,
      maxSeats: maxSeatsOf(workspace),
      seatsUsed: used as number,
    }),
    ...Object.assign({}, ...parts),
  };
}

export async function updateWorkspaceSettings(
  deps: WorkspaceDeps,
  caller: WorkspaceCaller,
  input: { name?: string; session_inactivity_timeout?: number | null },
): Promise<WorkspaceSummary> {
  await requireWorkspaceAdmin(deps.db, caller);
  const changes: Parameters<typeof updateWorkspace>[2] = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.session_inactivity_timeout !== undefined) {
    changes.sessionInactivityTimeout = input.session_inactivity_timeout;
  }
  if (Object.keys(changes).length > 0) await updateWorkspace(deps.db, caller.workspaceId, changes);
  return getWorkspaceSummary(deps, caller);
}

export async function listMembers(deps: WorkspaceDeps, caller: WorkspaceCaller): Promise<WorkspaceMember[]> {
  await roleOf(deps.db, caller);
  const workspace = await loadWorkspace(deps.db, caller.workspaceId);
  const rows = await listMembersWithUsers(deps.db, caller.workspaceId);
  return rows.map((row) => toWorkspaceMember(row, workspace.ownerId));
}

/** A member of the caller's workspace by email; 400 when the address has no seat here. */
async function memberByEmail(
  db: Db,
  workspaceId: string,
  email: string,
): Promise<{ user: UserRow; role: WorkspaceRole; isLocked: boolean }> {
  const row = await findMemberByEmail(db, workspaceId, email.toLowerCase());
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
    const changes: Parameters<typeof updateMemberRow>[3] = {};
    if (input.role) changes.role = input.role;
    if (input.isLocked !== undefined) changes.isLocked = input.isLocked;
    if (Object.keys(changes).length === 0) return;
    await updateMemberRow(tx, workspace.id, target.user.id, changes);
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
  const other = await findOtherWorkspace(db, user.id, leaving);
  if (other) return other;
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
    const row = await lockUser(tx, user.id);
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
  await deps.events.transaction(async (tx, events) => {
    const workspace = await loadWorkspace(tx, caller.workspaceId, true);
    const target = await memberByEmail(tx, workspace.id, email);
    if (target.user.id === workspace.ownerId) {
      throw new AppError('bad_request', 'The owner cannot be removed; transfer the ownership first.');
    }
    await deleteMember(tx, workspace.id, target.user.id);
    await removeFromWorkspaceGroups(tx, workspace.id, target.user.id);
    await forgetMemberShares(tx, workspace.id, target.user.id);
    await moveOutIfCurrent(tx, target.user, workspace.id);
    // Their API keys for this workspace stop working in this same transaction (the api-keys module's).
    await events.publish(workspaceMemberRemoved, {
      workspaceId: workspace.id,
      userId: target.user.id,
      atUnixMs: deps.clock.now().getTime(),
    });
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
    await setWorkspaceOwner(tx, workspace.id, target.user.id);
    await updateMemberRow(tx, workspace.id, target.user.id, { role: 'admin', isLocked: false });
  });
}

// ---- The user's workspaces -----------------------------------------------------------------------------

export async function listUserWorkspaces(db: Db, caller: WorkspaceCaller) {
  const rows = await listUserWorkspaceRows(db, caller.userId);
  return rows.map((row) => toUserWorkspace(row, caller));
}

/**
 * Makes a workspace the user's current one if they hold an unlocked seat there. The seat is locked while
 * the user moves: a removal or lock racing the switch waits, and cannot leave the user in the workspace.
 */
export async function switchWorkspace(db: Db, userId: string, workspaceId: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await lockUnlockedSeat(tx, userId, workspaceId))) {
      throw new AppError('resource_not_found', 'You are not a member of this workspace.');
    }
    await setUserWorkspace(tx, userId, workspaceId);
  });
}

/** The auth guard's check: the caller still holds an unlocked seat in the workspace their token names. */
export async function activeMembership(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<WorkspaceRole | undefined> {
  const row = await getMembership(db, workspaceId, userId);
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
