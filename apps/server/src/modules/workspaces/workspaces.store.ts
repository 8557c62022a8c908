import { hasAdminRights, type SubscriptionTier } from '@parla/contracts';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type WorkspaceRow, workspaceMembers, workspaces } from './workspaces.tables';

export type WorkspaceRole = (typeof workspaceMembers.$inferSelect)['role'];

/** Creates a workspace and makes its owner an admin member (accounts doc §1: owner = admin). */
export async function insertWorkspaceWithOwner(
  db: Db,
  workspace: { id: string; name: string; ownerId: string; tier?: SubscriptionTier },
): Promise<WorkspaceRow> {
  const [row] = await db.insert(workspaces).values(workspace).returning();
  if (!row) throw new Error('insert into workspaces returned no row');
  await db.insert(workspaceMembers).values({ workspaceId: row.id, userId: workspace.ownerId, role: 'admin' });
  return row;
}

/** The member's role in a workspace, or undefined when the user is not a member. */
export async function getMemberRole(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<WorkspaceRole | undefined> {
  const [row] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  return row?.role;
}

/** Whether the user may change the workspace's settings (training opt-out, members, security). */
export async function isWorkspaceAdmin(db: Db, workspaceId: string, userId: string): Promise<boolean> {
  return hasAdminRights(await getMemberRole(db, workspaceId, userId));
}

/** The users with admin rights in a workspace (admins and editors, accounts §6), unlocked seats only. */
export async function listWorkspaceAdminIds(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db
    .select({
      userId: workspaceMembers.userId,
      role: workspaceMembers.role,
      isLocked: workspaceMembers.isLocked,
    })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId));
  return rows.filter((r) => !r.isLocked && hasAdminRights(r.role)).map((r) => r.userId);
}

/** A workspace by id, locked for the transaction when asked (member and invitation changes take it first). */
export async function getWorkspace(
  db: Db,
  workspaceId: string,
  options: { lock?: boolean } = {},
): Promise<WorkspaceRow | undefined> {
  const query = db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** Changes a workspace's settings. */
export async function updateWorkspace(
  db: Db,
  workspaceId: string,
  changes: Partial<Pick<WorkspaceRow, 'name' | 'sessionInactivityTimeout' | 'tier'>>,
): Promise<void> {
  await db.update(workspaces).set(changes).where(eq(workspaces.id, workspaceId));
}

/** Hands a workspace to another owner. */
export async function setWorkspaceOwner(db: Db, workspaceId: string, ownerId: string): Promise<void> {
  await db.update(workspaces).set({ ownerId }).where(eq(workspaces.id, workspaceId));
}

/** The workspaces a user owns, locked until the transaction ends. */
export async function lockOwnedWorkspaces(tx: Db, userId: string): Promise<WorkspaceRow[]> {
  return tx.select().from(workspaces).where(eq(workspaces.ownerId, userId)).for('update');
}

/** Whether a workspace has a member other than this user. */
export async function hasOtherMember(db: Db, workspaceId: string, userId: string): Promise<boolean> {
  const [other] = await db
    .select({ userId: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), ne(workspaceMembers.userId, userId)))
    .limit(1);
  return other !== undefined;
}

/** Deletes a workspace; its members, items, voices and the rest go by cascade. */
export async function deleteWorkspaceRow(tx: Db, workspaceId: string): Promise<void> {
  await tx.delete(workspaces).where(eq(workspaces.id, workspaceId));
}
