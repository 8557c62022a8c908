import type { WorkspaceGroup } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import {
  addGroupMembers,
  deleteGroupRow,
  groupExists,
  insertGroup,
  listGroupMemberEmails,
  listGroupRows,
  removeGroupMember as removeGroupMemberRow,
} from './groups.store';
import { requireWorkspaceAdmin, type WorkspaceCaller } from './members.service';
import { findMemberByEmail } from './members.store';
import { forgetGroupShares } from './sharing.store';
import { toGroupSearchResult, toWorkspaceGroup } from './workspaces.present';
import { getMemberRole } from './workspaces.store';

async function requireMember(db: Db, caller: WorkspaceCaller): Promise<void> {
  if (!(await getMemberRole(db, caller.workspaceId, caller.userId))) {
    throw new AppError('unauthorized', 'You are no longer a member of this workspace.');
  }
}

/** The workspace's groups (those with this name when one is given) with their members' emails. */
async function groupsOf(db: Db, workspaceId: string, name?: string): Promise<WorkspaceGroup[]> {
  const groups = await listGroupRows(db, workspaceId, name);
  const members = await listGroupMemberEmails(
    db,
    groups.map((g) => g.id),
  );
  return groups.map((group) =>
    toWorkspaceGroup(
      group,
      members.filter((m) => m.groupId === group.id).map((m) => m.email),
    ),
  );
}

export async function listGroups(db: Db, caller: WorkspaceCaller): Promise<Record<string, WorkspaceGroup>> {
  await requireMember(db, caller);
  return Object.fromEntries((await groupsOf(db, caller.workspaceId)).map((g) => [g.id, g]));
}

export async function searchGroups(db: Db, caller: WorkspaceCaller, name: string) {
  await requireMember(db, caller);
  return (await groupsOf(db, caller.workspaceId, name)).map(toGroupSearchResult);
}

export async function createGroup(db: Db, caller: WorkspaceCaller, name: string): Promise<WorkspaceGroup> {
  await requireWorkspaceAdmin(db, caller);
  const id = newId();
  await insertGroup(db, { id, workspaceId: caller.workspaceId, name });
  return toWorkspaceGroup({ id, name }, []);
}

/** A group of the caller's workspace; another workspace's id reads as unknown. */
async function requireGroup(db: Db, caller: WorkspaceCaller, groupId: string): Promise<void> {
  if (!(await groupExists(db, caller.workspaceId, groupId))) {
    throw new AppError('resource_not_found', `Group ${groupId} not found.`);
  }
}

export async function deleteGroup(db: Db, caller: WorkspaceCaller, groupId: string): Promise<void> {
  await requireWorkspaceAdmin(db, caller);
  await requireGroup(db, caller, groupId);
  await db.transaction(async (tx) => {
    await forgetGroupShares(tx, groupId);
    await deleteGroupRow(tx, groupId);
  });
}

/** The member with this email, or 400 when the address has no seat in the workspace. */
async function memberId(db: Db, workspaceId: string, email: string): Promise<string> {
  const member = await findMemberByEmail(db, workspaceId, email.toLowerCase());
  if (!member) throw new AppError('bad_request', `${email} is not a member of this workspace.`);
  return member.user.id;
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
  await addGroupMembers(db, [{ groupId, userId }]);
}

export async function removeGroupMember(
  db: Db,
  caller: WorkspaceCaller,
  groupId: string,
  email: string,
): Promise<void> {
  const userId = await groupMemberChange(db, caller, groupId, email);
  await removeGroupMemberRow(db, groupId, userId);
}
