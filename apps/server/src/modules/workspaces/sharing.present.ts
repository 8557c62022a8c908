import type { ResourceMetadata, ResourceRole } from '@parla/contracts';
import type { ShareableResourceType, SharedResource } from '../../platform/module';
import type { ResourceShareRow } from './sharing.store';

/**
 * A resource as its sharing dialog shows it: who holds which role (the creator admin; `default` for the
 * whole workspace) and whom it can still be shared with.
 */
export function toResourceMetadata(input: {
  type: ShareableResourceType;
  resource: SharedResource;
  role: ResourceRole;
  shares: ResourceShareRow[];
  members: { id: string; email: string; firstName: string | null }[];
  groups: { id: string; name: string }[];
}): ResourceMetadata {
  const { resource } = input;
  const roleToIds: Record<string, string[]> = {};
  const grant = (r: string, id: string) => {
    roleToIds[r] = [...(roleToIds[r] ?? []), id];
  };
  if (resource.creatorId) grant('admin', resource.creatorId);
  for (const share of input.shares)
    grant(share.role, share.principalType === 'default' ? 'default' : share.principalId);
  const holders = new Set(Object.values(roleToIds).flat());
  return {
    resource_id: resource.id,
    resource_name: resource.name,
    resource_type: input.type,
    creator_user_id: resource.creatorId,
    role_to_group_ids: roleToIds,
    share_options: [
      ...input.members
        .filter((m) => !holders.has(m.id))
        .map((m) => ({
          id: m.id,
          name: m.firstName ? `${m.firstName} (${m.email})` : m.email,
          type: 'user' as const,
        })),
      ...input.groups
        .filter((g) => !holders.has(g.id))
        .map((g) => ({ id: g.id, name: g.name, type: 'group' as const })),
    ],
    your_role: input.role,
  };
}
