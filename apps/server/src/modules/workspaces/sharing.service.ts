import type { ResourceMetadata, ResourceRole } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import type { ShareableKinds, ShareableResourceType, SharedResource } from '../../platform/module';
import { groupExists, listGroupRows } from './groups.store';
import { findMemberByEmail, listMemberContacts } from './members.store';
import type { ResourceCaller } from './resource-access';
import { assertRole, callerRoleOn } from './resource-access';
import { toResourceMetadata } from './sharing.present';
import {
  deleteResourceShares,
  deleteShare,
  listShares,
  type SharePrincipal,
  upsertShare,
} from './sharing.store';

/** What sharing needs: the database and the kinds of resource the modules declared shareable. */
export interface SharingDeps {
  db: Db;
  kinds: ShareableKinds;
}

/** The resource as the caller may see it, with their role; the owning module's 404 when they cannot. */
async function loadShared(
  deps: SharingDeps,
  caller: ResourceCaller,
  type: ShareableResourceType,
  id: string,
): Promise<{ resource: SharedResource; role: ResourceRole }> {
  const kind = deps.kinds.get(type);
  if (!kind) throw new Error(`no module declares the shareable kind ${type}`);
  const resource = await kind.find(deps.db, caller.workspaceId, id);
  const role = resource ? await callerRoleOn(deps.db, caller, type, resource) : null;
  if (!resource || !role) throw kind.notFound(id);
  return { resource, role };
}

interface Target {
  user_email?: string | undefined;
  group_id?: string | undefined;
  workspace_api_key_id?: string | undefined;
}

/** Whom a share names, as stored: a member, a group of this workspace, or `default` (everyone). */
async function principalOf(db: Db, caller: ResourceCaller, target: Target): Promise<SharePrincipal> {
  if (target.workspace_api_key_id) {
    throw new AppError(
      'bad_request',
      'Parla has no service accounts yet, so a resource cannot be shared with an API key; share it with a member or a group.',
    );
  }
  if (target.group_id === 'default') return { type: 'default', id: caller.workspaceId };
  if (target.group_id) {
    if (!(await groupExists(db, caller.workspaceId, target.group_id))) {
      throw new AppError('resource_not_found', `Group ${target.group_id} not found.`);
    }
    return { type: 'group', id: target.group_id };
  }
  const email = (target.user_email ?? '').toLowerCase();
  const member = await findMemberByEmail(db, caller.workspaceId, email);
  if (!member) throw new AppError('bad_request', `${target.user_email} is not a member of this workspace.`);
  return { type: 'user', id: member.user.id };
}

export async function shareResource(
  deps: SharingDeps,
  caller: ResourceCaller,
  input: { resourceId: string; type: ShareableResourceType; role: ResourceRole } & Target,
): Promise<void> {
  const { resource, role } = await loadShared(deps, caller, input.type, input.resourceId);
  assertRole(input.type, role, 'admin');
  const principal = await principalOf(deps.db, caller, input);
  if (principal.type === 'user' && principal.id === resource.creatorId) {
    throw new AppError('bad_request', 'The creator always has admin access to what they made.');
  }
  await upsertShare(deps.db, {
    workspaceId: caller.workspaceId,
    type: input.type,
    resourceId: resource.id,
    principal,
    role: input.role,
  });
}

export async function unshareResource(
  deps: SharingDeps,
  caller: ResourceCaller,
  input: { resourceId: string; type: ShareableResourceType } & Target,
): Promise<void> {
  const { resource, role } = await loadShared(deps, caller, input.type, input.resourceId);
  assertRole(input.type, role, 'admin');
  const principal = await principalOf(deps.db, caller, input);
  if (principal.type === 'user' && principal.id === resource.creatorId) {
    throw new AppError('bad_request', 'The creator’s access cannot be removed.');
  }
  await deleteShare(deps.db, { type: input.type, resourceId: resource.id, principal });
}

export async function getResourceMetadata(
  deps: SharingDeps,
  caller: ResourceCaller,
  type: ShareableResourceType,
  resourceId: string,
): Promise<ResourceMetadata> {
  const { resource, role } = await loadShared(deps, caller, type, resourceId);
  return toResourceMetadata({
    type,
    resource,
    role,
    shares: await listShares(deps.db, type, resource.id),
    members: await listMemberContacts(deps.db, caller.workspaceId),
    groups: await listGroupRows(deps.db, caller.workspaceId),
  });
}

/** Drops what a deleted resource was shared with (its module calls this when it deletes one). */
export async function forgetShares(db: Db, type: ShareableResourceType, resourceId: string): Promise<void> {
  await deleteResourceShares(db, type, resourceId);
}
