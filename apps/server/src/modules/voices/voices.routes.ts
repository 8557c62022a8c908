import {
  getDefaultVoiceSettingsRoute,
  getVoiceRoute,
  getVoiceSettingsRoute,
  listModelsRoute,
  listVoicesRoute,
  PREMADE_VOICES,
  searchVoicesRoute,
} from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../app';
import { registerRoute } from '../../platform/route';
import { getVoicePreview } from './voice-previews';
import {
  DEFAULT_VOICE_SETTINGS,
  getVoice,
  listModels,
  searchVoices,
  toVoiceResponse,
} from './voices.service';

/** Models and voices (issue 4): the public API's read calls, and the voice previews. */
export async function voiceRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const guarded = { preHandler: deps.auth.requireAuth };
  const publicUrl = deps.config.publicUrl;

  registerRoute(
    app,
    listModelsRoute,
    async () => listModels({ external: deps.config.externalTts !== undefined }),
    guarded,
  );
  registerRoute(
    app,
    listVoicesRoute,
    async () => ({ voices: PREMADE_VOICES.map((v) => toVoiceResponse(v, publicUrl)) }),
    guarded,
  );
  registerRoute(
    app,
    searchVoicesRoute,
    async ({ query }) => {
      const page = searchVoices({
        search: query.search,
        sort: query.sort,
        sortDirection: query.sort_direction,
        voiceType: query.voice_type,
        category: query.category,
        pageSize: query.page_size,
        nextPageToken: query.next_page_token,
        voiceIds: typeof query.voice_ids === 'string' ? [query.voice_ids] : query.voice_ids,
      });
      return {
        voices: page.voices.map((v) => toVoiceResponse(v, publicUrl)),
        has_more: page.hasMore,
        total_count: page.total,
        next_page_token: page.nextPageToken,
      };
    },
    guarded,
  );
  registerRoute(app, getDefaultVoiceSettingsRoute, async () => DEFAULT_VOICE_SETTINGS, guarded);
  registerRoute(
    app,
    getVoiceRoute,
    async ({ params, query }) =>
      toVoiceResponse(getVoice(params.voice_id), publicUrl, query.with_settings !== 'false'),
    guarded,
  );
  registerRoute(
    app,
    getVoiceSettingsRoute,
    async ({ params }) => {
      getVoice(params.voice_id);
      return DEFAULT_VOICE_SETTINGS;
    },
    guarded,
  );

  // The preview behind `preview_url`: public like the public API's preview files, cached for a day.
  app.get(
    '/v1/voices/:voice_id/preview',
    { schema: { params: z.object({ voice_id: z.string().max(100) }), hide: true } },
    async (request, reply) => {
      const { voice_id } = request.params as { voice_id: string };
      const audio = await getVoicePreview(deps, getVoice(voice_id));
      return reply
        .header('content-type', 'audio/mpeg')
        .header('cache-control', 'public, max-age=86400')
        .send(audio);
    },
  );
}
