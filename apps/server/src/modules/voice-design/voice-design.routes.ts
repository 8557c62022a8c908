import {
  createDesignedVoiceRoute,
  createVoicePreviewsRoute,
  designVoiceRoute,
  remixVoiceRoute,
  streamVoicePreviewRoute,
} from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import {
  createDesignedVoice,
  type DesignDeps,
  designVoice,
  previewAudio,
  remixVoice,
} from './voice-design.service';

/** What voice design needs from the app. */
export function designDepsOf(deps: AppDeps): DesignDeps {
  return {
    db: deps.database.db,
    logger: deps.logger,
    events: deps.events,
    storage: deps.storage,
    engines: deps.providers.tts,
    voiceConversion: deps.providers.voiceConversion,
    publicUrl: deps.config.publicUrl,
    models: deps.models,
  };
}

/** Voice design under /v1/text-to-voice (history/voices §7): previews from a description, remix, save. */
export async function voiceDesignRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const guarded = { onRequest: deps.auth.requireAuth };
  const design = designDepsOf(deps);
  for (const route of [designVoiceRoute, createVoicePreviewsRoute]) {
    registerRoute(
      app,
      route,
      async ({ request, body, query }) =>
        designVoice(design, callerOf(request), {
          ...body,
          output_format: query.output_format ?? body.output_format,
        }),
      guarded,
    );
  }
  registerRoute(
    app,
    remixVoiceRoute,
    async ({ request, params, body, query }) =>
      remixVoice(design, callerOf(request), params.voice_id, {
        ...body,
        output_format: query.output_format ?? body.output_format,
      }),
    guarded,
  );
  registerRoute(
    app,
    createDesignedVoiceRoute,
    async ({ request, body }) => createDesignedVoice(design, callerOf(request), body),
    guarded,
  );
  registerRoute(
    app,
    streamVoicePreviewRoute,
    async ({ request, reply, params }) => {
      const preview = await previewAudio(design, callerOf(request), params.generated_voice_id);
      return reply.header('content-type', preview.contentType).send(preview.audio);
    },
    guarded,
  );
}
