import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type UserRow, users } from '../users/users.tables';
import type { WorkspaceRole } from './workspaces.store';
import { workspaceMembers, workspaces } from './workspaces.tables';

export type MemberRow = typeof workspaceMembers.$inferSelect;

/** How many members a workspace has. */
export async function countMembers(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId));
  return row?.n ?? 0;
}

/** The workspace's members with their address and first name, oldest first. */
export async function listMembersWithUsers(
  db: Db,
  workspaceId: string,
): Promise<{ member: MemberRow; email: string; firstName: string | null }[]> {
  return db
    .select({ member: workspaceMembers, email: users.email, firstName: users.firstName })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(asc(workspaceMembers.createdAt), asc(users.email));
}

/** The workspace's members as share options: id, address and first name, by address. */
export async function listMemberContacts(
  db: Db,
  workspaceId: string,
): Promise<{ id: string; email: string; firstName: string | null }[]> {
  return db
    .select({ id: users.id, email: users.email, firstName: users.firstName })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(asc(users.email));
}

/** The member of a workspace with this (lower-case) address, or undefined. */
export async function findMemberByEmail(
  db: Db,
  workspaceId: string,
  email: string,
): Promise<{ user: UserRow; role: WorkspaceRole; isLocked: boolean } | undefined> {
  const [row] = await db
    .select({ user: users, role: workspaceMembers.role, isLocked: workspaceMembers.isLocked })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(users.email, email)));
  return row;
}

/** Which of these (lower-case) addresses already belong to members of the workspace. */
export async function listMemberEmailsAmong(
  db: Db,
  workspaceId: string,
  emails: string[],
): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), inArray(users.email, emails)));
  return rows.map((row) => row.email);
}

/** A user's seat in a workspace: its role and whether it is locked; undefined when they have none. */
export async function getMembership(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<{ role: WorkspaceRole; isLocked: boolean } | undefined> {
  const [row] = await db
    .select({ role: workspaceMembers.role, isLocked: workspaceMembers.isLocked })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  return row;
}

export async function insertMember(
  db: Db,
  member: { workspaceId: string; userId: string; role: WorkspaceRole },
): Promise<void> {
  await db.insert(workspaceMembers).values(member);
}

/** Changes a member's role or lock. */
export async function updateMemberRow(
  db: Db,
  workspaceId: string,
  userId: string,
  changes: Partial<Pick<MemberRow, 'role' | 'isLocked'>>,
): Promise<void> {
  await db
    .update(workspaceMembers)
    .set(changes)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
}

export async function deleteMember(db: Db, workspaceId: string, userId: string): Promise<void> {
  await db
    .delete(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
}

/** Another workspace where the user holds an unlocked seat, one they own first; undefined when none. */
export async function findOtherWorkspace(
  db: Db,
  userId: string,
  leaving: string | null,
): Promise<string | undefined> {
  const [other] = await db
    .select({ id: workspaces.id })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.userId, userId),
        leaving === null ? undefined : ne(workspaceMembers.workspaceId, leaving),
        eq(workspaceMembers.isLocked, false),
      ),
    )
    .orderBy(sql`${workspaces.ownerId} = ${userId} desc`, asc(workspaceMembers.createdAt))
    .limit(1);
  return other?.id;
}

/** The workspaces where the user holds an unlocked seat, with their role, oldest seat first. */
export async function listUserWorkspaceRows(
  db: Db,
  userId: string,
): Promise<{ id: string; name: string; ownerId: string; role: WorkspaceRole }[]> {
  return db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      ownerId: workspaces.ownerId,
      role: workspaceMembers.role,
    })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.isLocked, false)))
    .orderBy(asc(workspaceMembers.createdAt));
}

/** The user's row, locked for the transaction. */
export async function lockUser(db: Db, userId: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).for('update');
  return row;
}

/** Whether the user holds an unlocked seat in the workspace, locking that seat (a removal waits for it). */
export async function lockUnlockedSeat(db: Db, userId: string, workspaceId: string): Promise<boolean> {
  const [seat] = await db
    .select({ userId: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.userId, userId),
        eq(workspaceMembers.isLocked, false),
      ),
    )
    .for('update');
  return seat !== undefined;
}
