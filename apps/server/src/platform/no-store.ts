import type { FastifyInstance } from 'fastify';

/** The API's paths, and the development mailbox (its mails hold one-time codes). */
const NO_STORE_PREFIXES = ['/v1/', '/v2/', '/dev/'];

/**
 * API answers get `Cache-Control: no-store` unless their route set a cache header of its own. They carry
 * the caller's account — the user document, sessions and tokens, keys, the workspace, billing, usage,
 * consent, messages — which no browser cache or proxy may keep (a shared computer, a back button after
 * sign-out). One default for every route, so a new route cannot forget it; the routes that may be cached
 * (audio, previews, share-page audio, `/health`) say so themselves and keep their header.
 */
export function registerNoStoreDefault(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('cache-control') && NO_STORE_PREFIXES.some((p) => request.url.startsWith(p))) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });
}
