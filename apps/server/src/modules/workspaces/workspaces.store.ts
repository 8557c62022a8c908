import { hasAdminRights, type SubscriptionTier } from '@parla/contracts';
import { and, eq } from 'drizzle-orm';
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
