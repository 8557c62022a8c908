/** The workspaces module's front door: what other modules may do (issue 26 item 1; the rest is its own). */
export { activeMembership, adminRightsRequired, workspaceForToken } from './members.service';
export type { ResourceCaller } from './resource-access';
export { assertRole, callerRoleOn, holdsRole, roleProblem } from './resource-access';
export { forgetShares } from './sharing.service';
export {
  createUserWithWorkspace,
  deleteWorkspace,
  holdsAdminRights,
  lockWorkspace,
  lockWorkspacesOwnedBy,
  memberRoleOf,
  setSessionInactivityTimeout,
  setWorkspaceTier,
  workspaceAdminIds,
} from './workspaces.service';
