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
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { openAiSpeech } from './openai-speech';
import { streamTextToSpeech, textToSpeech } from './tts.service';
import { ttsDepsOf, withGenerationHeaders } from './tts-http';

/** Text to speech over the public API (issue 4). */
export async function ttsRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const tts = ttsDepsOf(deps);
  const guarded = { onRequest: deps.auth.requireAuth };
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
    withGenerationHeaders(reply, request, result);
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
        withGenerationHeaders(reply, request, result);
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
      withGenerationHeaders(reply, request, result);
      reply.header('content-type', result.contentType);
      return result.audio;
    },
    guarded,
  );
}
