import { createSingleUseTokenRoute } from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { issueSingleUseToken, parseTokenType } from './single-use-tokens';

/** `POST /v1/single-use-token/{token_type}` (the SDK's `tokens.singleUse.create`), issue 20 item 5. */
export async function singleUseTokenRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  registerRoute(
    app,
    createSingleUseTokenRoute,
    async ({ request, params }) => {
      const tokenType = parseTokenType(params.token_type);
      const token = await issueSingleUseToken(
        deps.database.db,
        principalOf(request),
        tokenType,
        deps.clock.now(),
      );
      return { token };
    },
    // A page asks for one per socket it opens: 60 a minute per caller is plenty and bounds the table.
    { onRequest: deps.auth.requireAuth, config: { rateLimit: { max: 60, timeWindow: 60_000 } } },
  );
}
