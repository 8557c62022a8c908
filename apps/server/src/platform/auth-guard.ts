import type { SingleUseTokenType, WorkspaceRole } from '@parla/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

/*
 * Who calls a route: what the auth guard establishes (the guard itself is the auth module's,
 * modules/auth/auth-guard.ts, built at start-up and handed to the routes in AppDeps).
 */

/** Who is calling, as established by the guard. */
export interface Principal {
  userId: string;
  workspaceId: string;
  via: 'access_token' | 'api_key' | 'single_use_token';
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
  /**
   * The caller of a socket (issue 20): a single-use token of the socket's type (accepted once), else an
   * API key, else a Bearer token. 401 `invalid_api_key` / `unauthorized` as for requests.
   */
  authenticateSocket(credentials: SocketCredentials): Promise<Principal>;
  /**
   * Whether a socket's caller may still call: their seat kept and, for an API key (or a token a key asked
   * for), the key neither disabled nor deleted. Sockets check it before each piece of work they charge.
   */
  stillAuthorized(principal: Principal): Promise<boolean>;
  /** The key that signs access tokens (resolved once per process). */
  signingSecret(): Promise<string>;
}

/** What a socket's opening request (or, where its protocol allows, its first message) carries. */
export interface SocketCredentials {
  /** An API key: the `xi-api-key` header, or one the protocol's first message carries. */
  apiKey?: string | undefined;
  /** An `Authorization` header's or parameter's value (`Bearer …`): an API key or an access token. */
  authorization?: string | undefined;
  /** A single-use token (the `token` query parameter). */
  token?: string | undefined;
  /** The type a single-use token must have to open this socket (a socket that takes none leaves it out). */
  tokenType?: SingleUseTokenType | undefined;
}

/** Who calls, and the request they make: what a service is given about its caller. */
export interface RequestCaller {
  userId: string;
  workspaceId: string;
  apiKeyId?: string | undefined;
  requestId: string;
}

/** The caller of a guarded route as services take it (a signed-in session or an API key). */
export function callerOf(request: FastifyRequest): RequestCaller {
  const principal = principalOf(request);
  return {
    userId: principal.userId,
    workspaceId: principal.workspaceId,
    apiKeyId: principal.apiKeyId,
    requestId: request.id,
  };
}

/** The caller of a guarded route (the guard ran as its onRequest hook). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('principalOf: the route has no auth guard');
  return request.principal;
}
