import { readStorage, removeStorage, storageKeys, writeStorage } from '../../lib/storage-keys';

/** The query parameter of the mailed invitation link. */
export const INVITE_CODE_PARAM = 'invite_code';

/** The page that answers invitations (accounts §2 settings/workspace-invites). */
export const workspaceInvitesPath = '/app/settings/workspace-invites';

/** The invitations page offering the invitation with this code. */
export function invitePath(code: string): string {
  return `${workspaceInvitesPath}?${new URLSearchParams({ [INVITE_CODE_PARAM]: code })}`;
}

/**
 * Keeps the code of an invitation opened while signed out (accounts §9), so that it survives sign-up,
 * the verification mail and sign-in, whichever page they end on (issue 18).
 */
export function rememberInviteCode(code: string): void {
  writeStorage(storageKeys.inviteCode, code);
}

/** The kept invitation code, if any. */
export function readInviteCode(): string | null {
  return readStorage(storageKeys.inviteCode);
}

/** Forgets the kept code once its invitation is answered (or refused by the server). */
export function forgetInviteCode(): void {
  removeStorage(storageKeys.inviteCode);
}

/** The invitations page for the kept code, or undefined when none is kept. */
export function pendingInvitePath(): string | undefined {
  const code = readInviteCode();
  return code ? invitePath(code) : undefined;
}
