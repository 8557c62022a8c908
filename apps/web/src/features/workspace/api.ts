import {
  acceptWorkspaceInviteRoute,
  addWorkspaceGroupMemberRoute,
  createWorkspaceGroupRoute,
  declineWorkspaceInviteRoute,
  deleteWorkspaceGroupRoute,
  deleteWorkspaceInviteRoute,
  getWorkspaceResourceRoute,
  getWorkspaceRoute,
  inviteWorkspaceMemberRoute,
  listReceivedInvitesRoute,
  listUserWorkspacesRoute,
  listWorkspaceGroupsRoute,
  listWorkspaceInvitesRoute,
  listWorkspaceMembersRoute,
  type ResourceRole,
  removeWorkspaceGroupMemberRoute,
  removeWorkspaceMemberRoute,
  type SHAREABLE_RESOURCE_TYPES,
  shareWorkspaceResourceRoute,
  switchWorkspaceRoute,
  transferWorkspaceOwnershipRoute,
  unshareWorkspaceResourceRoute,
  updateWorkspaceMemberRoute,
  updateWorkspaceSettingsRoute,
  type WorkspaceRole,
} from '@parla/contracts';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';

export type ShareableResourceType = (typeof SHAREABLE_RESOURCE_TYPES)[number];

/** Whom a share names: a member by email, or a group id (`default`: everyone in the workspace). */
export type ShareTarget = { user_email: string } | { group_id: string };

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

/** The workspace calls (accounts §1/§4/§6, history/voices §7 "Workspace"), typed by the contracts. */
export const workspaceApi = {
  getWorkspace: (signal?: AbortSignal) => apiRequest(getWorkspaceRoute, { signal }),
  updateSettings: (body: { name?: string; session_inactivity_timeout?: number | null }) =>
    apiRequest(updateWorkspaceSettingsRoute, { body }),
  listMembers: (signal?: AbortSignal) => apiRequest(listWorkspaceMembersRoute, { signal }),
  updateMember: (body: { email: string; role?: WorkspaceRole; is_locked?: boolean }) =>
    apiRequest(updateWorkspaceMemberRoute, { body }),
  removeMember: (email: string) => apiRequest(removeWorkspaceMemberRoute, { body: { email } }),
  transferOwnership: (email: string) => apiRequest(transferWorkspaceOwnershipRoute, { body: { email } }),
  invite: (body: { email: string; role: WorkspaceRole; group_ids?: string[] }) =>
    apiRequest(inviteWorkspaceMemberRoute, { body }),
  withdrawInvite: (email: string) => apiRequest(deleteWorkspaceInviteRoute, { body: { email } }),
  listInvites: (signal?: AbortSignal) => apiRequest(listWorkspaceInvitesRoute, { signal }),
  listReceivedInvites: (signal?: AbortSignal) => apiRequest(listReceivedInvitesRoute, { signal }),
  acceptInvite: (answer: { invite_code: string } | { invite_id: string }) =>
    apiRequest(acceptWorkspaceInviteRoute, { body: answer }),
  declineInvite: (answer: { invite_code: string } | { invite_id: string }) =>
    apiRequest(declineWorkspaceInviteRoute, { body: answer }),
  listUserWorkspaces: (signal?: AbortSignal) => apiRequest(listUserWorkspacesRoute, { signal }),
  switchWorkspace: (workspaceId: string) =>
    apiRequest(switchWorkspaceRoute, { body: { workspace_id: workspaceId } }),
  listGroups: (signal?: AbortSignal) => apiRequest(listWorkspaceGroupsRoute, { signal }),
  createGroup: (name: string) => apiRequest(createWorkspaceGroupRoute, { body: { name } }),
  deleteGroup: (groupId: string) => apiRequest(deleteWorkspaceGroupRoute, { params: { group_id: groupId } }),
  addGroupMember: (groupId: string, email: string) =>
    apiRequest(addWorkspaceGroupMemberRoute, { params: { group_id: groupId }, body: { email } }),
  removeGroupMember: (groupId: string, email: string) =>
    apiRequest(removeWorkspaceGroupMemberRoute, { params: { group_id: groupId }, body: { email } }),
  getResource: (type: ShareableResourceType, id: string, signal?: AbortSignal) =>
    apiRequest(getWorkspaceResourceRoute, {
      params: { resource_id: id },
      query: { resource_type: type },
      signal,
    }),
  share: (type: ShareableResourceType, id: string, role: ResourceRole, target: ShareTarget) =>
    apiRequest(shareWorkspaceResourceRoute, {
      params: { resource_id: id },
      body: { resource_type: type, role, ...target },
    }),
  unshare: (type: ShareableResourceType, id: string, target: ShareTarget) =>
    apiRequest(unshareWorkspaceResourceRoute, {
      params: { resource_id: id },
      body: { resource_type: type, ...target },
    }),
};

export function workspaceSummaryQueryOptions() {
  return queryOptions({
    queryKey: workspaceQueryKeys.summary,
    queryFn: ({ signal }) => workspaceApi.getWorkspace(signal),
  });
}

/** The current workspace: name, owner, the caller's role, seats and settings. */
export function useWorkspaceSummary() {
  return useQuery(workspaceSummaryQueryOptions());
}

/** The current workspace's members, locked ones included. */
export function useWorkspaceMembers({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: workspaceQueryKeys.members,
    queryFn: ({ signal }) => workspaceApi.listMembers(signal),
    enabled,
  });
}

/** The current workspace's pending invitations. */
export function useWorkspaceInvites({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    enabled,
    queryKey: workspaceQueryKeys.invites,
    queryFn: ({ signal }) => workspaceApi.listInvites(signal).then((answer) => answer.invites),
  });
}

/** The current workspace's groups, sorted by name (the API answers a record by id). */
export function useWorkspaceGroups({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: workspaceQueryKeys.groups,
    queryFn: ({ signal }) =>
      workspaceApi
        .listGroups(signal)
        .then((groups) => Object.values(groups).sort((a, b) => a.name.localeCompare(b.name))),
    enabled,
  });
}

/** Who a resource is shared with; fetched while `enabled` (the share dialog is open). */
export function useWorkspaceResource(type: ShareableResourceType, id: string, { enabled = true } = {}) {
  return useQuery({
    queryKey: workspaceQueryKeys.resource(type, id),
    queryFn: ({ signal }) => workspaceApi.getResource(type, id, signal),
    enabled,
  });
}

/** The workspaces the caller belongs to; pass `enabled: false` while nobody is signed in. */
export function useUserWorkspaces({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: workspaceQueryKeys.userWorkspaces,
    queryFn: ({ signal }) => workspaceApi.listUserWorkspaces(signal).then((answer) => answer.workspaces),
    enabled,
  });
}

/** The pending invitations addressed to the caller's verified email. */
export function useReceivedInvites() {
  return useQuery({
    queryKey: workspaceQueryKeys.receivedInvites,
    queryFn: ({ signal }) => workspaceApi.listReceivedInvites(signal).then((answer) => answer.invites),
  });
}

/** After a membership change: the current workspace's data (members, invites, groups, seats). */
export function invalidateWorkspace(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: workspaceQueryKeys.all });
}
