import type { WorkspaceGroup } from '@parla/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { users } from '../users/users.tables';
import { requireWorkspaceAdmin, type WorkspaceCaller } from './members.service';
import { getMemberRole } from './workspaces.store';
import {
  resourceShares,
  workspaceGroupMembers,
  workspaceGroups,
  workspaceMembers,
} from './workspaces.tables';

async function requireMember(db: Db, caller: WorkspaceCaller): Promise<void> {
  if (!(await getMemberRole(db, caller.workspaceId, caller.userId))) {
    throw new AppError('unauthorized', 'You are no longer a member of this workspace.');
  }
}

/** The workspace's groups with their members' emails, by id. */
async function groupsOf(db: Db, workspaceId: string, where = eq(workspaceGroups.workspaceId, workspaceId)) {
  const groups = await db.select().from(workspaceGroups).where(where).orderBy(asc(workspaceGroups.name));
  const members = groups.length
    ? await db
        .select({ groupId: workspaceGroupMembers.groupId, email: users.email })
        .from(workspaceGroupMembers)
        .innerJoin(users, eq(users.id, workspaceGroupMembers.userId))
        .where(
          inArray(
            workspaceGroupMembers.groupId,
            groups.map((g) => g.id),
          ),
        )
        .orderBy(asc(users.email))
    : [];
  return groups.map(
    (group): WorkspaceGroup => ({
      id: group.id,
      name: group.name,
      members: members.filter((m) => m.groupId === group.id).map((m) => m.email),
      permissions: [],
    }),
  );
}

export async function listGroups(db: Db, caller: WorkspaceCaller): Promise<Record<string, WorkspaceGroup>> {
  await requireMember(db, caller);
  return Object.fromEntries((await groupsOf(db, caller.workspaceId)).map((g) => [g.id, g]));
}

export async function searchGroups(db: Db, caller: WorkspaceCaller, name: string) {
  await requireMember(db, caller);
  const found = await groupsOf(
    db,
    caller.workspaceId,
    and(eq(workspaceGroups.workspaceId, caller.workspaceId), eq(workspaceGroups.name, name)),
  );
  return found.map((g) => ({ id: g.id, name: g.name, members_emails: g.members }));
}

export async function createGroup(db: Db, caller: WorkspaceCaller, name: string): Promise<WorkspaceGroup> {
  await requireWorkspaceAdmin(db, caller);
  const id = newId();
  await db.insert(workspaceGroups).values({ id, workspaceId: caller.workspaceId, name });
  return { id, name, members: [], permissions: [] };
}

/** A group of the caller's workspace; another workspace's id reads as unknown. */
async function requireGroup(db: Db, caller: WorkspaceCaller, groupId: string): Promise<void> {
  const [group] = await db
    .select({ id: workspaceGroups.id })
    .from(workspaceGroups)
    .where(and(eq(workspaceGroups.id, groupId), eq(workspaceGroups.workspaceId, caller.workspaceId)));
  if (!group) throw new AppError('resource_not_found', `Group ${groupId} not found.`);
}

export async function deleteGroup(db: Db, caller: WorkspaceCaller, groupId: string): Promise<void> {
  await requireWorkspaceAdmin(db, caller);
  await requireGroup(db, caller, groupId);
  await db.transaction(async (tx) => {
    await tx
      .delete(resourceShares)
      .where(and(eq(resourceShares.principalType, 'group'), eq(resourceShares.principalId, groupId)));
    await tx.delete(workspaceGroups).where(eq(workspaceGroups.id, groupId));
  });
}

/** The member with this email, or 400 when the address has no seat in the workspace. */
async function memberId(db: Db, workspaceId: string, email: string): Promise<string> {
  const [row] = await db
    .select({ id: users.id })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(users.email, email.toLowerCase())));
  if (!row) throw new AppError('bad_request', `${email} is not a member of this workspace.`);
  return row.id;
}

/** What adding or removing a group member first checks: admin rights, the group, the member; their id. */
async function groupMemberChange(
  db: Db,
  caller: WorkspaceCaller,
  groupId: string,
  email: string,
): Promise<string> {
  await requireWorkspaceAdmin(db, caller);
  await requireGroup(db, caller, groupId);
  return memberId(db, caller.workspaceId, email);
}

export async function addGroupMember(
  db: Db,
  caller: WorkspaceCaller,
  groupId: string,
  email: string,
): Promise<void> {
  const userId = await groupMemberChange(db, caller, groupId, email);
  await db.insert(workspaceGroupMembers).values({ groupId, userId }).onConflictDoNothing();
}

export async function removeGroupMember(
  db: Db,
  caller: WorkspaceCaller,
  groupId: string,
  email: string,
): Promise<void> {
  const userId = await groupMemberChange(db, caller, groupId, email);
  await db
    .delete(workspaceGroupMembers)
    .where(and(eq(workspaceGroupMembers.groupId, groupId), eq(workspaceGroupMembers.userId, userId)));
}
