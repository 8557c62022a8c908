import type { MfaChallengeResponse, SessionResponse } from '@parla/contracts';
import { ACCESS_TOKEN_TTL_SECONDS } from './access-token';

/** A signed-in session as the client gets it (the refresh token goes in a cookie, not here). */
export function toSessionResponse(accessToken: string, userId: string, workspaceId: string): SessionResponse {
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    user_id: userId,
    workspace_id: workspaceId,
  };
}

/** What a sign-in with a second factor answers instead of a session. */
export function toMfaChallengeResponse(mfaToken: string): MfaChallengeResponse {
  return { mfa_required: true, mfa_token: mfaToken, expires_in: ACCESS_TOKEN_TTL_SECONDS };
}
