import type { FastifyRequest } from 'fastify';
import type { AuthGuard, Principal } from '../../platform/auth-guard';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { resolveApiKey } from '../api-keys';
import { activeMembership } from '../workspaces';
import { verifyAccessToken } from './access-token';
import { resolveSigningSecret } from './signing-secret';

/** Builds the guard; the signing secret is resolved on first use and kept. */
export function createAuthGuard(deps: { db: Db; clock: Clock; authSecret: string | undefined }): AuthGuard {
  let secret: Promise<string> | undefined;
  const signingSecret = () => {
    secret ??= resolveSigningSecret(deps.db, deps.authSecret).catch((error: unknown) => {
      secret = undefined; // try again on the next request rather than failing forever
      throw error;
    });
    return secret;
  };

  /**
   * The caller, and only while they still hold an unlocked seat in the workspace named: a member removed
   * or locked loses access at once, not when their token runs out. The 401 `workspace_access_revoked`
   * makes the web app refresh its token, which names the workspace the user works in now.
   */
  async function authenticate(request: FastifyRequest): Promise<Principal> {
    const principal = await identify(request);
    const role = await activeMembership(deps.db, principal.workspaceId, principal.userId);
    if (!role) {
      if (principal.via === 'api_key') {
        throw new AppError('invalid_api_key', 'This API key’s owner no longer has access to its workspace.');
      }
      throw new AppError('workspace_access_revoked', 'You no longer have access to this workspace.');
    }
    return { ...principal, role };
  }

  async function identify(request: FastifyRequest): Promise<Omit<Principal, 'role'>> {
    // OpenAI-style clients send the key as a Bearer token (`Authorization: Bearer sk_…`).
    const bearerKey = request.headers.authorization?.match(/^Bearer\s+(sk_[0-9a-f]{48})$/i)?.[1];
    const apiKey = request.headers['xi-api-key'] ?? bearerKey;
    if (typeof apiKey === 'string' && apiKey !== '') {
      const row = await resolveApiKey(deps.db, apiKey.trim(), deps.clock.now());
      if (!row) throw new AppError('invalid_api_key', 'Invalid API key');
      return { userId: row.userId, workspaceId: row.workspaceId, via: 'api_key', apiKeyId: row.id };
    }
    const header = request.headers.authorization;
    const bearer = header?.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (bearer) {
      const claims = verifyAccessToken(bearer, await signingSecret(), deps.clock.now());
      if (!claims) throw new AppError('unauthorized', 'Your session has expired. Please sign in again.');
      return { userId: claims.sub, workspaceId: claims.wid, via: 'access_token' };
    }
    throw new AppError('unauthorized', 'Sign in, or send an API key in the xi-api-key header.');
  }

  async function authenticateSession(request: FastifyRequest): Promise<Principal> {
    const principal = await authenticate(request);
    if (principal.via === 'api_key') {
      throw new AppError(
        'forbidden',
        'This needs a signed-in session; API keys cannot change account security.',
      );
    }
    return principal;
  }

  return {
    authenticate,
    signingSecret,
    async requireAuth(request) {
      request.principal = await authenticate(request);
    },
    authenticateSession,
    async requireSession(request) {
      request.principal = await authenticateSession(request);
    },
  };
}
