import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import type { TtsDeps } from './tts.service';

/** What a generation needs from the app: the engine pool, with the external speech server if configured. */
export function ttsDepsOf(deps: AppDeps): TtsDeps {
  return {
    db: deps.database.db,
    engines: deps.providers.tts,
    externalConfigured: deps.config.externalTts !== undefined,
    storage: deps.storage,
    clock: deps.clock,
    logger: deps.logger,
    leases: deps.leases,
    events: deps.events,
  };
}

/** The public API's response headers of a generation. */
export function withGenerationHeaders(
  reply: FastifyReply,
  request: FastifyRequest,
  result: { characterCost: number; historyItemId: string | undefined },
): void {
  reply.header('request-id', request.id);
  reply.header('x-character-count', String(result.characterCost));
  if (result.historyItemId) reply.header('history-item-id', result.historyItemId);
}
