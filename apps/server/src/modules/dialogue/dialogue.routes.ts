import {
  textToDialogueRoute,
  textToDialogueStreamRoute,
  textToDialogueStreamWithTimestampsRoute,
  textToDialogueWithTimestampsRoute,
} from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { ttsDepsOf, withGenerationHeaders } from '../tts';
import { type DialogueInput, streamTextToDialogue, textToDialogue } from './dialogue.service';

/** Text to dialogue over the public API (history/voices §5, §9): several lines, each in its own voice. */
export async function dialogueRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const tts = ttsDepsOf(deps);
  const guarded = { onRequest: deps.auth.requireAuth };
  const inputOf = (
    query: { output_format: DialogueInput['outputFormat']; enable_logging: boolean },
    body: DialogueInput['body'],
  ): DialogueInput => ({ outputFormat: query.output_format, enableLogging: query.enable_logging, body });

  registerRoute(
    app,
    textToDialogueRoute,
    async ({ request, reply, query, body }) => {
      const result = await textToDialogue(tts, callerOf(request), inputOf(query, body));
      withGenerationHeaders(reply, request, result);
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
      withGenerationHeaders(reply, request, result);
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
        withGenerationHeaders(reply, request, result);
        reply.header('content-type', result.contentType);
        return result.stream;
      },
      guarded,
    );
  }
}
