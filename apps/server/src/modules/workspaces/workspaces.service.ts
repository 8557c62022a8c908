import type { SubscriptionTier } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { newId } from '../../platform/ids';
import { createUser, setUserWorkspace } from '../users';
import type { UserRow } from '../users/users.tables';
import {
  deleteWorkspaceRow,
  getMemberRole,
  getWorkspace,
  hasOtherMember,
  insertWorkspaceWithOwner,
  isWorkspaceAdmin,
  listWorkspaceAdminIds,
  lockOwnedWorkspaces,
  updateWorkspace,
  type WorkspaceRole,
} from './workspaces.store';
import type { WorkspaceRow } from './workspaces.tables';

/**
 * Creates a user with their own workspace in one transaction: every new user gets a workspace they
 * own as admin (accounts doc §1, §3). Sign-up calls this.
 */
export async function createUserWithWorkspace(
  db: Db,
  input: {
    email: string;
    firstName?: string | null;
    passwordHash?: string | null;
    agreesToProductUpdates?: boolean;
    emailVerifiedAt?: Date | null;
    tier?: SubscriptionTier;
  },
): Promise<{ user: UserRow; workspace: WorkspaceRow }> {
  return db.transaction(async (tx) => {
    const user = await createUser(tx, {
      id: newId(),
      email: input.email.toLowerCase(),
      firstName: input.firstName ?? null,
      passwordHash: input.passwordHash ?? null,
      agreesToProductUpdates: input.agreesToProductUpdates ?? false,
      emailVerifiedAt: input.emailVerifiedAt ?? null,
    });
    const name = input.firstName ? `${input.firstName}'s Workspace` : 'My Workspace';
    const workspace = await insertWorkspaceWithOwner(tx, {
      id: newId(),
      name,
      ownerId: user.id,
      tier: input.tier ?? 'free',
    });
    await setUserWorkspace(tx, user.id, workspace.id);
    return { user: { ...user, workspaceId: workspace.id }, workspace };
  });
}

/** The member's role in a workspace, or undefined when the user is not a member. */
export function memberRoleOf(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<WorkspaceRole | undefined> {
  return getMemberRole(db, workspaceId, userId);
}

/** Whether the user holds the workspace's admin rights (admin or editor, accounts §6). */
export function holdsAdminRights(db: Db, workspaceId: string, userId: string): Promise<boolean> {
  return isWorkspaceAdmin(db, workspaceId, userId);
}

/** The users with admin rights in a workspace (unlocked seats): whom a workspace's notices go to. */
export function workspaceAdminIds(db: Db, workspaceId: string): Promise<string[]> {
  return listWorkspaceAdminIds(db, workspaceId);
}

/**
 * Takes the workspace's row lock for the transaction: what spending credits, billing changes and voice adds
 * serialise on. Read what the lock guards with a later statement: under READ COMMITTED a locking read that
 * waited re-reads only the locked row, and the rows it joined (the balance, the subscription) would be as
 * they were before the wait. False when the workspace is gone.
 */
export async function lockWorkspace(tx: Db, workspaceId: string): Promise<boolean> {
  return (await getWorkspace(tx, workspaceId, { lock: true })) !== undefined;
}

/** Puts a workspace on a plan's tier (billing's decision; seats and every generation read it). */
export function setWorkspaceTier(db: Db, workspaceId: string, tier: SubscriptionTier): Promise<void> {
  return updateWorkspace(db, workspaceId, { tier });
}

/** accounts §3 Workspace.session_inactivity_timeout (seconds), or null for none. */
export function setSessionInactivityTimeout(
  db: Db,
  workspaceId: string,
  seconds: number | null,
): Promise<void> {
  return updateWorkspace(db, workspaceId, { sessionInactivityTimeout: seconds });
}

/**
 * The workspaces a user owns, each with whether anyone else is a member, locked until the transaction ends
 * (no member joins meanwhile): what deleting the account must check first.
 */
export async function lockWorkspacesOwnedBy(
  tx: Db,
  userId: string,
): Promise<{ workspace: WorkspaceRow; hasOtherMembers: boolean }[]> {
  const owned = await lockOwnedWorkspaces(tx, userId);
  return Promise.all(
    owned.map(async (workspace) => ({
      workspace,
      hasOtherMembers: await hasOtherMember(tx, workspace.id, userId),
    })),
  );
}

/** Deletes a workspace; its members, items, voices and every module's rows go by cascade. */
export function deleteWorkspace(tx: Db, workspaceId: string): Promise<void> {
  return deleteWorkspaceRow(tx, workspaceId);
}
