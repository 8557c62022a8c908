import {
  openAiSpeechRoute,
  type TextToSpeechBody,
  type TextToSpeechQuery,
  textToSpeechRoute,
  textToSpeechStreamRoute,
  textToSpeechStreamWithTimestampsRoute,
  textToSpeechWithTimestampsRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppDeps } from '../../app';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { OpenAiCompatibleProvider, routeProviders } from '../../providers/tts/tts-provider';
import { openAiSpeech } from './openai-speech';
import {
  streamTextToSpeech,
  type TtsCaller,
  type TtsDeps,
  type TtsResult,
  type TtsStream,
  textToSpeech,
} from './tts.service';

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
  result: Pick<TtsResult | TtsStream, 'characterCost' | 'historyItemId'>,
): void {
  reply.header('request-id', request.id);
  reply.header('x-character-count', String(result.characterCost));
  if (result.historyItemId) reply.header('history-item-id', result.historyItemId);
}

/** Text to speech over the public API (issue 4). */
export async function ttsRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
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
  const generate = async (
    request: FastifyRequest,
    reply: FastifyReply,
    params: { voice_id: string },
    query: z.infer<typeof TextToSpeechQuery>,
    body: TextToSpeechBody,
  ) => {
    const result = await textToSpeech(tts, callerOf(request), {
      voiceId: params.voice_id,
      outputFormat: query.output_format,
      enableLogging: query.enable_logging,
      body,
    });
    withHeaders(reply, request, result);
    return result;
  };

  registerRoute(
    app,
    textToSpeechRoute,
    async ({ request, reply, params, query, body }) => {
      const result = await generate(request, reply, params, query, body);
      reply.header('content-type', result.contentType);
      return result.audio;
    },
    guarded,
  );

  registerRoute(
    app,
    textToSpeechWithTimestampsRoute,
    async ({ request, reply, params, query, body }) => {
      const result = await generate(request, reply, params, query, body);
      return {
        audio_base64: result.audio.toString('base64'),
        alignment: result.alignment,
        normalized_alignment: result.normalizedAlignment,
      };
    },
    guarded,
  );

  for (const [route, mode] of [
    [textToSpeechStreamRoute, 'audio'],
    [textToSpeechStreamWithTimestampsRoute, 'timestamps'],
  ] as const) {
    registerRoute(
      app,
      route,
      async ({ request, reply, params, query, body }) => {
        const result = await streamTextToSpeech(
          tts,
          callerOf(request),
          {
            voiceId: params.voice_id,
            outputFormat: query.output_format,
            enableLogging: query.enable_logging,
            body,
          },
          mode,
        );
        withHeaders(reply, request, result);
        reply.header('content-type', result.contentType);
        return result.stream;
      },
      guarded,
    );
  }

  registerRoute(
    app,
    openAiSpeechRoute,
    async ({ request, reply, body }) => {
      const result = await openAiSpeech(tts, callerOf(request), body);
      withHeaders(reply, request, result);
      reply.header('content-type', result.contentType);
      return result.audio;
    },
    guarded,
  );
}
