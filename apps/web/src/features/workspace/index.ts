/** The workspace feature's front door for other features. */

export { getWorkspaceQueryOptions } from './api/get-workspace';
export {
  forgetInviteCode,
  INVITE_CODE_PARAM,
  invitePath,
  pendingInvitePath,
  readInviteCode,
  rememberInviteCode,
  workspaceInvitesPath,
} from './invite-code';
