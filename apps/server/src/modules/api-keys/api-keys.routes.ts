import { createApiKeyRoute, deleteApiKeyRoute, editApiKeyRoute, listApiKeysRoute } from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { toApiKeyList, toApiKeyResponse, toCreatedApiKey } from './api-keys.present';
import { deleteApiKey, editApiKey, issueApiKey, listApiKeys } from './api-keys.service';

/** accounts §7 "API keys: GET list, POST create, DELETE delete, POST edit" (issue 3 item 8). */
export async function apiKeyRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const db = deps.database.db;
  const guarded = { onRequest: deps.auth.requireAuth };
  // A key must not mint, widen or revive keys: changes need a signed-in session.
  const session = { onRequest: deps.auth.requireSession };

  registerRoute(
    app,
    listApiKeysRoute,
    async ({ request }) => toApiKeyList(await listApiKeys(db, principalOf(request).userId)),
    guarded,
  );
  registerRoute(
    app,
    createApiKeyRoute,
    async ({ request, body }) => {
      const principal = principalOf(request);
      const { key, row } = await issueApiKey(
        { db, events: deps.events },
        {
          userId: principal.userId,
          workspaceId: principal.workspaceId,
          name: body.name,
          characterLimit: body.character_limit ?? null,
        },
      );
      return toCreatedApiKey(key, row);
    },
    session,
  );
  registerRoute(
    app,
    editApiKeyRoute,
    async ({ request, params, body }) =>
      toApiKeyResponse(
        await editApiKey(db, principalOf(request).userId, params.key_id, body, deps.clock.now()),
      ),
    session,
  );
  registerRoute(
    app,
    deleteApiKeyRoute,
    async ({ request, params }) => {
      await deleteApiKey(db, principalOf(request).userId, params.key_id);
      return { status: 'ok' as const };
    },
    session,
  );
}
