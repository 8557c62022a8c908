import type { FastifyRequest } from 'fastify';
import type { AuthGuard, Principal, SocketCredentials } from '../../platform/auth-guard';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { apiKeyIsLive, resolveApiKey } from '../api-keys';
import { activeMembership } from '../workspaces';
import { verifyAccessToken } from './access-token';
import { resolveSigningSecret } from './signing-secret';
import { consumeSingleUseToken } from './single-use-tokens';

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
    return withRole(await identify(request));
  }

  async function identify(request: FastifyRequest): Promise<Omit<Principal, 'role'>> {
    return identifyCredentials({
      apiKey: request.headers['xi-api-key'] as string | undefined,
      authorization: request.headers.authorization,
    });
  }

  async function identifyCredentials(
    credentials: Omit<SocketCredentials, 'tokenType'>,
  ): Promise<Omit<Principal, 'role'>> {
    // OpenAI-style clients send the key as a Bearer token (`Authorization: Bearer sk_…`).
    const bearerKey = credentials.authorization?.match(/^Bearer\s+(sk_[0-9a-f]{48})$/i)?.[1];
    const apiKey = credentials.apiKey ?? bearerKey;
    if (typeof apiKey === 'string' && apiKey !== '') {
      const row = await resolveApiKey(deps.db, apiKey.trim(), deps.clock.now());
      if (!row) throw new AppError('invalid_api_key', 'Invalid API key');
      return { userId: row.userId, workspaceId: row.workspaceId, via: 'api_key', apiKeyId: row.id };
    }
    const bearer = credentials.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (bearer) {
      const claims = verifyAccessToken(bearer, await signingSecret(), deps.clock.now());
      if (!claims) throw new AppError('unauthorized', 'Your session has expired. Please sign in again.');
      return { userId: claims.sub, workspaceId: claims.wid, via: 'access_token' };
    }
    throw new AppError('unauthorized', 'Sign in, or send an API key in the xi-api-key header.');
  }

  /** A seat check on an identified caller (see authenticate). */
  async function withRole(principal: Omit<Principal, 'role'>): Promise<Principal> {
    const role = await activeMembership(deps.db, principal.workspaceId, principal.userId);
    if (!role) {
      if (principal.via !== 'access_token') {
        throw new AppError('invalid_api_key', 'This API key’s owner no longer has access to its workspace.');
      }
      throw new AppError('workspace_access_revoked', 'You no longer have access to this workspace.');
    }
    return { ...principal, role };
  }

  async function authenticateSocket(credentials: SocketCredentials): Promise<Principal> {
    if (credentials.token !== undefined) {
      const owner = credentials.tokenType
        ? await consumeSingleUseToken(deps.db, credentials.token, credentials.tokenType, deps.clock.now())
        : undefined;
      if (!owner) {
        throw new AppError(
          'unauthorized',
          'This single-use token is unknown, expired, already used, or not for this socket.',
        );
      }
      if (owner.apiKeyId && !(await apiKeyIsLive(deps.db, owner.userId, owner.apiKeyId)))
        throw new AppError(
          'invalid_api_key',
          'The API key that asked for this token was disabled or deleted.',
        );
      return withRole({
        userId: owner.userId,
        workspaceId: owner.workspaceId,
        via: 'single_use_token',
        ...(owner.apiKeyId ? { apiKeyId: owner.apiKeyId } : {}),
      });
    }
    return withRole(await identifyCredentials(credentials));
  }

  async function stillAuthorized(principal: Principal): Promise<boolean> {
    if (principal.apiKeyId && !(await apiKeyIsLive(deps.db, principal.userId, principal.apiKeyId)))
      return false;
    return Boolean(await activeMembership(deps.db, principal.workspaceId, principal.userId));
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
    authenticateSocket,
    stillAuthorized,
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
