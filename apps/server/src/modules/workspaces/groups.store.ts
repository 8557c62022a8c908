import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { users } from '../users/users.tables';
import { workspaceGroupMembers, workspaceGroups } from './workspaces.tables';

export type GroupRow = typeof workspaceGroups.$inferSelect;

/** The workspace's groups by name; only those with this name when one is given. */
export async function listGroupRows(db: Db, workspaceId: string, name?: string): Promise<GroupRow[]> {
  return db
    .select()
    .from(workspaceGroups)
    .where(
      and(
        eq(workspaceGroups.workspaceId, workspaceId),
        name === undefined ? undefined : eq(workspaceGroups.name, name),
      ),
    )
    .orderBy(asc(workspaceGroups.name));
}

/** The members' addresses of these groups, by address. */
export async function listGroupMemberEmails(
  db: Db,
  groupIds: string[],
): Promise<{ groupId: string; email: string }[]> {
  if (groupIds.length === 0) return [];
  return db
    .select({ groupId: workspaceGroupMembers.groupId, email: users.email })
    .from(workspaceGroupMembers)
    .innerJoin(users, eq(users.id, workspaceGroupMembers.userId))
    .where(inArray(workspaceGroupMembers.groupId, groupIds))
    .orderBy(asc(users.email));
}

/** Which of these ids are groups of the workspace. */
export async function listGroupIdsAmong(db: Db, workspaceId: string, groupIds: string[]): Promise<string[]> {
  const rows = await db
    .select({ id: workspaceGroups.id })
    .from(workspaceGroups)
    .where(and(eq(workspaceGroups.workspaceId, workspaceId), inArray(workspaceGroups.id, groupIds)));
  return rows.map((row) => row.id);
}

/** Whether the group is one of the workspace's (another workspace's id reads as unknown). */
export async function groupExists(db: Db, workspaceId: string, groupId: string): Promise<boolean> {
  const [group] = await db
    .select({ id: workspaceGroups.id })
    .from(workspaceGroups)
    .where(and(eq(workspaceGroups.id, groupId), eq(workspaceGroups.workspaceId, workspaceId)));
  return group !== undefined;
}

export async function insertGroup(
  db: Db,
  group: { id: string; workspaceId: string; name: string },
): Promise<void> {
  await db.insert(workspaceGroups).values(group);
}

export async function deleteGroupRow(db: Db, groupId: string): Promise<void> {
  await db.delete(workspaceGroups).where(eq(workspaceGroups.id, groupId));
}

/** Adds members to groups; those already in stay as they are. */
export async function addGroupMembers(db: Db, rows: { groupId: string; userId: string }[]): Promise<void> {
  await db.insert(workspaceGroupMembers).values(rows).onConflictDoNothing();
}

export async function removeGroupMember(db: Db, groupId: string, userId: string): Promise<void> {
  await db
    .delete(workspaceGroupMembers)
    .where(and(eq(workspaceGroupMembers.groupId, groupId), eq(workspaceGroupMembers.userId, userId)));
}

/** Takes a user out of every group of one workspace (they left it). */
export async function removeFromWorkspaceGroups(db: Db, workspaceId: string, userId: string): Promise<void> {
  await db
    .delete(workspaceGroupMembers)
    .where(
      and(
        eq(workspaceGroupMembers.userId, userId),
        inArray(
          workspaceGroupMembers.groupId,
          db
            .select({ id: workspaceGroups.id })
            .from(workspaceGroups)
            .where(eq(workspaceGroups.workspaceId, workspaceId)),
        ),
      ),
    );
}
