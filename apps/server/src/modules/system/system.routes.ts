import { healthRoute, listModelStoreRoute } from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { registerRoute } from '../../platform/route';
import { presentStoredModel } from './system.present';
import { checkHealth, listStoredModels } from './system.service';

/**
 * `GET /health`: 200 when everything is ready, 503 with the same body when something is not; and
 * `GET /v1/model-store`, the model store's state (public, as `/licenses` is).
 */
export async function systemRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  registerRoute(app, healthRoute, async ({ reply }) => {
    const health = await checkHealth({
      database: deps.database,
      engines: deps.engines,
      models: deps.models,
      role: deps.config.role,
      version: deps.version,
    });
    reply.header('cache-control', 'no-store');
    if (health.status !== 'ok') reply.status(503);
    return health;
  });
  registerRoute(app, listModelStoreRoute, async () => ({
    models: listStoredModels(deps.models).map(presentStoredModel),
  }));
}
