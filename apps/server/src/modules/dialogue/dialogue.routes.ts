import {
  textToDialogueRoute,
  textToDialogueStreamRoute,
  textToDialogueStreamWithTimestampsRoute,
  textToDialogueWithTimestampsRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { OpenAiCompatibleProvider, routeProviders } from '../../providers/tts/tts-provider';
import type { TtsCaller, TtsDeps } from '../tts/tts.service';
import {
  type DialogueInput,
  type DialogueResult,
  type DialogueStream,
  streamTextToDialogue,
  textToDialogue,
} from './dialogue.service';

function callerOf(request: FastifyRequest): TtsCaller {
  const principal = principalOf(request);
  return {
    userId: principal.userId,
    workspaceId: principal.workspaceId,
    apiKeyId: principal.apiKeyId,
    requestId: request.id,
  };
}

/** The public API's response headers of a generation. */
function withHeaders(
  reply: FastifyReply,
  request: FastifyRequest,
  result: Pick<DialogueResult | DialogueStream, 'characterCost' | 'historyItemId'>,
): void {
  reply.header('request-id', request.id);
  reply.header('x-character-count', String(result.characterCost));
  if (result.historyItemId) reply.header('history-item-id', result.historyItemId);
}

/** Text to dialogue over the public API (history/voices §5, §9): several lines, each in its own voice. */
export async function dialogueRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const tts: TtsDeps = {
    db: deps.database.db,
    engines: routeProviders(
      deps.engines,
      deps.config.externalTts
        ? new OpenAiCompatibleProvider({
            ...deps.config.externalTts,
            timeoutMs: deps.config.engines.timeoutMs,
          })
        : undefined,
    ),
    externalConfigured: deps.config.externalTts !== undefined,
    storage: deps.storage,
    clock: deps.clock,
    logger: deps.logger,
    engineTimeoutMs: deps.config.engines.timeoutMs,
  };
  const guarded = { preHandler: deps.auth.requireAuth };
  const inputOf = (
    query: { output_format: DialogueInput['outputFormat']; enable_logging: boolean },
    body: DialogueInput['body'],
  ): DialogueInput => ({ outputFormat: query.output_format, enableLogging: query.enable_logging, body });

  registerRoute(
    app,
    textToDialogueRoute,
    async ({ request, reply, query, body }) => {
      const result = await textToDialogue(tts, callerOf(request), inputOf(query, body));
      withHeaders(reply, request, result);
      reply.header('content-type', result.contentType);
      return result.audio;
    },
    guarded,
  );

  registerRoute(
    app,
    textToDialogueWithTimestampsRoute,
    async ({ request, reply, query, body }) => {
      const result = await textToDialogue(tts, callerOf(request), inputOf(query, body));
      withHeaders(reply, request, result);
      return {
        audio_base64: result.audio.toString('base64'),
        alignment: result.alignment,
        normalized_alignment: result.normalizedAlignment,
        voice_segments: result.voiceSegments,
      };
    },
    guarded,
  );

  for (const [route, mode] of [
    [textToDialogueStreamRoute, 'audio'],
    [textToDialogueStreamWithTimestampsRoute, 'timestamps'],
  ] as const) {
    registerRoute(
      app,
      route,
      async ({ request, reply, query, body }) => {
        const result = await streamTextToDialogue(tts, callerOf(request), inputOf(query, body), mode);
        withHeaders(reply, request, result);
        reply.header('content-type', result.contentType);
        return result.stream;
      },
      guarded,
    );
  }
}
