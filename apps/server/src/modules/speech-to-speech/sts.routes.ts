import {
  SpeechToSpeechFields,
  STS_MAX_UPLOAD_BYTES,
  speechToSpeechRoute,
  speechToSpeechStreamRoute,
} from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { acceptMultipart, readMultipartForm } from '../../platform/multipart';
import { registerRoute } from '../../platform/route';
import { biometricGuard } from '../consent';
import { ttsDepsOf, withGenerationHeaders } from '../tts';
import { resolveSpeakingVoice } from '../voices';
import { type StsDeps, speechToSpeech, streamSpeechToSpeech } from './sts.service';

/** Speech to speech over the public API (issue 7 item 7): multipart in, audio out. */
export async function stsRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await acceptMultipart(app, STS_MAX_UPLOAD_BYTES);
  const sts: StsDeps = {
    ...ttsDepsOf(deps),
    // The model store: a target voice's profile is its preview as the default model speaks it, classic
    // where its neural model is missing (without it, Kokoro was asked for and every conversion failed).
    previews: {
      engines: deps.engines,
      storage: deps.storage,
      logger: deps.logger,
      db: deps.database.db,
      models: deps.models,
    },
    voiceConversion: deps.providers.voiceConversion,
    denoise: deps.providers.denoise,
  };
  // The voice changer reads a person's voice: accounts §4 biometric terms first.
  const biometric = biometricGuard(deps);

  // One handler for both: the whole conversion, answered at once or in chunks (`/stream`).
  for (const [route, streamed] of [
    [speechToSpeechRoute, false],
    [speechToSpeechStreamRoute, true],
  ] as const) {
    registerRoute(
      app,
      route,
      async ({ request, reply, params, query }) => {
        // An unknown or unusable voice is refused before the upload is read.
        await resolveSpeakingVoice(deps.database.db, callerOf(request), params.voice_id);
        const form = await readMultipartForm(request, 'audio', SpeechToSpeechFields);
        const input = {
          voiceId: params.voice_id,
          outputFormat: query.output_format,
          enableLogging: query.enable_logging,
          fields: form.fields,
          audio: form.file?.bytes,
        };
        const caller = callerOf(request);
        const result = streamed
          ? await streamSpeechToSpeech(sts, caller, input)
          : await speechToSpeech(sts, caller, input);
        withGenerationHeaders(reply, request, result);
        reply.header('content-type', result.contentType);
        return 'stream' in result ? result.stream : result.audio;
      },
      biometric,
    );
  }
}
