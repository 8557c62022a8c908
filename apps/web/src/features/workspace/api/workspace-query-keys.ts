import type { SHAREABLE_RESOURCE_TYPES } from '@parla/contracts';
import type { QueryClient } from '@tanstack/react-query';

export type ShareableResourceType = (typeof SHAREABLE_RESOURCE_TYPES)[number];

/**
 * The workspace query keys. The current workspace's data sits under `['workspace']` (the consent feature's
 * training opt-out too); the caller's workspaces and the invitations addressed to them sit apart, since they
 * do not change with the current workspace.
 */
export const workspaceQueryKeys = {
  all: ['workspace'] as const,
  summary: ['workspace', 'summary'] as const,
  members: ['workspace', 'members'] as const,
  invites: ['workspace', 'invites'] as const,
  groups: ['workspace', 'groups'] as const,
  resource: (type: ShareableResourceType, id: string) => ['workspace', 'resource', type, id] as const,
  userWorkspaces: ['user-workspaces'] as const,
  receivedInvites: ['user-workspace-invites'] as const,
};

/** After a membership change: the current workspace's data (members, invites, groups, seats). */
export function invalidateWorkspace(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: workspaceQueryKeys.all });
}
