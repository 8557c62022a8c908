/** The workspaces module's front door: what other modules may use (issue 17; the rest is its own). */
export { activeMembership, adminRightsRequired, workspaceForToken } from './members.service';
export type { ResourceCaller } from './resource-access';
export { assertRole, callerRoleOn, forgetShares, holdsRole, roleProblem } from './resource-access';
export { createUserWithWorkspace } from './workspaces.service';
export { getMemberRole, isWorkspaceAdmin } from './workspaces.store';
