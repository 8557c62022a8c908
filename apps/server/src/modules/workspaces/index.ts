/** The workspaces module's front door: what other modules may use (issue 17; the rest is its own). */
export { activeMembership, adminRightsRequired, workspaceForToken } from './members.service';
export { assertRole, callerRoleOn, roleProblem } from './resource-access';
export type { ResourceCaller } from './sharing.store';
export { forgetShares, holdsRole } from './sharing.store';
export { createUserWithWorkspace } from './workspaces.service';
export { getMemberRole, isWorkspaceAdmin, listWorkspaceAdminIds, updateWorkspace } from './workspaces.store';
