import type { WorkspaceRole } from '@parla/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { resolveApiKey } from '../modules/api-keys/api-keys.service';
import { verifyAccessToken } from '../modules/auth/access-token';
import { resolveSigningSecret } from '../modules/auth/signing-secret';
import { activeMembership } from '../modules/workspaces/members.service';
import type { Clock } from './clock';
import type { Db } from './db/client';
import { AppError } from './errors';

/** Who is calling, as established by the guard. */
export interface Principal {
  userId: string;
  workspaceId: string;
  via: 'access_token' | 'api_key';
  apiKeyId?: string;
  /** The caller's role in that workspace, read when the guard checked their seat. */
  role: WorkspaceRole;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth guard (a route's onRequest hook) on routes that require a caller. */
    principal?: Principal;
  }
}

export interface AuthGuard {
  /**
   * The caller of a request: `xi-api-key` first (the public API's header), else a Bearer token — an API key
   * (`sk_…`, as OpenAI-style clients send it) or an access token.
   */
  authenticate(request: FastifyRequest): Promise<Principal>;
  /** An onRequest hook for routes that need a caller; sets `request.principal`. */
  requireAuth(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * An onRequest hook for the account's own security (second factor, keys, email, deletion): a signed-in
   * person with an access token, never an API key, so a leaked key cannot take the account over.
   */
  requireSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** The caller when it is a signed-in session (for routes where a session is one of two ways in). */
  authenticateSession(request: FastifyRequest): Promise<Principal>;
  /** The key that signs access tokens (resolved once per process). */
  signingSecret(): Promise<string>;
}

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

/** The caller of a guarded route (the guard ran as its onRequest hook). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('principalOf: the route has no auth guard');
  return request.principal;
}
