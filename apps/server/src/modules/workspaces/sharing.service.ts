import type { ResourceMetadata, ResourceRole } from '@parla/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { historyItems } from '../history/history.tables';
import { users } from '../users/users.tables';
import { voices } from '../voices/voices.tables';
import { assertRole, callerRoleOn, type ResourceCaller, type ShareableResourceType } from './resource-access';
import { resourceShares, workspaceGroups, workspaceMembers } from './workspaces.tables';

interface SharedResource {
  id: string;
  workspaceId: string;
  creatorId: string | null;
  name: string;
}

const NOT_FOUND: Record<ShareableResourceType, (id: string) => AppError> = {
  voice: (id) => new AppError('voice_not_found', `A voice with the voice_id ${id} was not found.`),
  history_item: (id) => new AppError('resource_not_found', `History item ${id} not found.`),
};

/** The resource as the caller may see it, with their role; 404 when they cannot see it. */
async function loadShared(
  db: Db,
  caller: ResourceCaller,
  type: ShareableResourceType,
  id: string,
): Promise<{ resource: SharedResource; role: ResourceRole }> {
  let resource: SharedResource | undefined;
  if (type === 'voice') {
    const [row] = await db
      .select({
        id: voices.id,
        workspaceId: voices.workspaceId,
        creatorId: voices.ownerUserId,
        name: voices.name,
      })
      .from(voices)
      .where(and(eq(voices.id, id), eq(voices.workspaceId, caller.workspaceId)));
    resource = row;
  } else {
    const [row] = await db
      .select({
        id: historyItems.id,
        workspaceId: historyItems.workspaceId,
        creatorId: historyItems.userId,
        name: historyItems.text,
      })
      .from(historyItems)
      .where(and(eq(historyItems.id, id), eq(historyItems.workspaceId, caller.workspaceId)));
    resource = row
      ? { ...row, name: row.name.length > 60 ? `${row.name.slice(0, 60)}…` : row.name }
      : undefined;
  }
  const role = resource ? await callerRoleOn(db, caller, type, resource) : null;
  if (!resource || !role) throw NOT_FOUND[type](id);
  return { resource, role };
}

interface Target {
  user_email?: string | undefined;
  group_id?: string | undefined;
  workspace_api_key_id?: string | undefined;
}

/** Whom a share names, as stored: a member, a group of this workspace, or `default` (everyone). */
async function principalOf(
  db: Db,
  caller: ResourceCaller,
  target: Target,
): Promise<{ type: 'user' | 'group' | 'default'; id: string }> {
  if (target.workspace_api_key_id) {
    throw new AppError(
      'bad_request',
      'Parla has no service accounts yet, so a resource cannot be shared with an API key; share it with a member or a group.',
    );
  }
  if (target.group_id === 'default') return { type: 'default', id: caller.workspaceId };
  if (target.group_id) {
    const [group] = await db
      .select({ id: workspaceGroups.id })
      .from(workspaceGroups)
      .where(
        and(eq(workspaceGroups.id, target.group_id), eq(workspaceGroups.workspaceId, caller.workspaceId)),
      );
    if (!group) throw new AppError('resource_not_found', `Group ${target.group_id} not found.`);
    return { type: 'group', id: group.id };
  }
  const email = (target.user_email ?? '').toLowerCase();
  const [member] = await db
    .select({ id: users.id })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, caller.workspaceId), eq(users.email, email)));
  if (!member) throw new AppError('bad_request', `${target.user_email} is not a member of this workspace.`);
  return { type: 'user', id: member.id };
}

export async function shareResource(
  db: Db,
  caller: ResourceCaller,
  input: { resourceId: string; type: ShareableResourceType; role: ResourceRole } & Target,
): Promise<void> {
  const { resource, role } = await loadShared(db, caller, input.type, input.resourceId);
  assertRole(input.type, role, 'admin');
  const principal = await principalOf(db, caller, input);
  if (principal.type === 'user' && principal.id === resource.creatorId) {
    throw new AppError('bad_request', 'The creator always has admin access to what they made.');
  }
  await db
    .insert(resourceShares)
    .values({
      workspaceId: caller.workspaceId,
      resourceType: input.type,
      resourceId: resource.id,
      principalType: principal.type,
      principalId: principal.id,
      role: input.role,
    })
    .onConflictDoUpdate({
      target: [
        resourceShares.resourceType,
        resourceShares.resourceId,
        resourceShares.principalType,
        resourceShares.principalId,
      ],
      set: { role: input.role },
    });
}

export async function unshareResource(
  db: Db,
  caller: ResourceCaller,
  input: { resourceId: string; type: ShareableResourceType } & Target,
): Promise<void> {
  const { resource, role } = await loadShared(db, caller, input.type, input.resourceId);
  assertRole(input.type, role, 'admin');
  const principal = await principalOf(db, caller, input);
  if (principal.type === 'user' && principal.id === resource.creatorId) {
    throw new AppError('bad_request', 'The creator’s access cannot be removed.');
  }
  await db
    .delete(resourceShares)
    .where(
      and(
        eq(resourceShares.resourceType, input.type),
        eq(resourceShares.resourceId, resource.id),
        eq(resourceShares.principalType, principal.type),
        eq(resourceShares.principalId, principal.id),
      ),
    );
}

export async function getResourceMetadata(
  db: Db,
  caller: ResourceCaller,
  type: ShareableResourceType,
  resourceId: string,
): Promise<ResourceMetadata> {
  const { resource, role } = await loadShared(db, caller, type, resourceId);
  const shares = await db
    .select()
    .from(resourceShares)
    .where(and(eq(resourceShares.resourceType, type), eq(resourceShares.resourceId, resource.id)));
  const roleToIds: Record<string, string[]> = {};
  const grant = (r: string, id: string) => {
    roleToIds[r] = [...(roleToIds[r] ?? []), id];
  };
  if (resource.creatorId) grant('admin', resource.creatorId);
  for (const share of shares)
    grant(share.role, share.principalType === 'default' ? 'default' : share.principalId);
  const holders = new Set(Object.values(roleToIds).flat());
  const members = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, caller.workspaceId))
    .orderBy(asc(users.email));
  const groups = await db
    .select({ id: workspaceGroups.id, name: workspaceGroups.name })
    .from(workspaceGroups)
    .where(eq(workspaceGroups.workspaceId, caller.workspaceId))
    .orderBy(asc(workspaceGroups.name));
  return {
    resource_id: resource.id,
    resource_name: resource.name,
    resource_type: type,
    creator_user_id: resource.creatorId,
    role_to_group_ids: roleToIds,
    share_options: [
      ...members
        .filter((m) => !holders.has(m.id))
        .map((m) => ({
          id: m.id,
          name: m.firstName ? `${m.firstName} (${m.email})` : m.email,
          type: 'user' as const,
        })),
      ...groups
        .filter((g) => !holders.has(g.id))
        .map((g) => ({ id: g.id, name: g.name, type: 'group' as const })),
    ],
    your_role: role,
  };
}
