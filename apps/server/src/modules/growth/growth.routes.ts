import { getReferralsRoute, googleAdsVisitRoute } from '@parla/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { countReferrals, recordAdVisit } from './growth.service';

const ok = { status: 'ok' as const };

/** Referral and paid-ads tracking (accounts §3, §7, §9). */
export async function growthRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const db = deps.database.db;

  /** The caller when the request is signed in; a visit reported signed out (or with a stale token) has none. */
  const callerOf = async (request: FastifyRequest) => {
    if (!request.headers.authorization && !request.headers['xi-api-key']) return undefined;
    return deps.auth.authenticate(request).catch(() => undefined);
  };

  // Open without sign-in, so limited per client address like the other public calls.
  registerRoute(
    app,
    googleAdsVisitRoute,
    async ({ request, body }) => {
      await recordAdVisit(db, body, await callerOf(request));
      return ok;
    },
    { config: { rateLimit: { max: 30, timeWindow: 15 * 60_000 } } },
  );
  registerRoute(
    app,
    getReferralsRoute,
    async ({ request }) => countReferrals(db, principalOf(request).userId),
    { onRequest: deps.auth.requireAuth },
  );
}
