import { removeMfaWithBackupCodeRoute, type SessionResponse } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /v1/user/backup-code/{code}/remove-mfa` (accounts §7): the second sign-in step with a backup code,
 * which turns two-factor off; answers the session.
 */
export async function signInWithBackupCode(
  mfaToken: string,
  code: string,
): Promise<SessionResponse | undefined> {
  return (await apiRequest(removeMfaWithBackupCodeRoute, { params: { code }, body: { mfa_token: mfaToken } }))
    .session;
}
