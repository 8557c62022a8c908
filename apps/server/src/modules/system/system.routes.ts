import { healthRoute } from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { registerRoute } from '../../platform/route';
import { checkHealth } from './system.service';

/** `GET /health`: 200 when everything is ready, 503 with the same body when something is not. */
export async function systemRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  registerRoute(app, healthRoute, async ({ reply }) => {
    const health = await checkHealth({
      database: deps.database,
      engines: deps.engines,
      role: deps.config.role,
      version: deps.version,
    });
    reply.header('cache-control', 'no-store');
    if (health.status !== 'ok') reply.status(503);
    return health;
  });
}
