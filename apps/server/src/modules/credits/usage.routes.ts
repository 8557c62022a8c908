import { characterStatsRoute } from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { characterStats } from './usage.service';

/** `GET /v1/usage/character-stats`: credits used per interval (the usage page's chart). */
export async function usageRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  registerRoute(
    app,
    characterStatsRoute,
    async ({ request, query }) => characterStats(deps.database.db, principalOf(request).workspaceId, query),
    { onRequest: deps.auth.requireAuth },
  );
}
