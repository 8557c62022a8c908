import { generateShareVideoRoute, getShareVideoPreviewRoute, getShareVideoRoute } from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { shareVideoRenderJob } from './share-video.jobs';
import { generateShareVideo, getShareVideoPreview, openShareVideo } from './share-video.service';

/** The share video calls (history/voices §2 "Share video dialog", §3, §5): render, fetch, preview. */
export async function shareVideoRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const video = {
    db: deps.database.db,
    storage: deps.storage,
    queue: deps.queue,
    renderJob: shareVideoRenderJob,
    enabled: deps.config.ttsVideoGeneration,
    publicUrl: deps.config.publicUrl,
  };
  const guarded = { onRequest: deps.auth.requireAuth };

  registerRoute(
    app,
    generateShareVideoRoute,
    async ({ request, params, query }) =>
      generateShareVideo(video, principalOf(request), params.history_item_id, query),
    guarded,
  );
  registerRoute(
    app,
    getShareVideoRoute,
    async ({ request, reply, params, query }) => {
      const file = await openShareVideo(video, principalOf(request), params.history_item_id, query);
      reply
        .header('content-type', 'video/mp4')
        .header('content-length', String(file.size))
        // Private like the item's audio; a render never changes, so the browser may keep it.
        .header('cache-control', 'private, max-age=3600');
      return file.stream;
    },
    guarded,
  );
  registerRoute(
    app,
    getShareVideoPreviewRoute,
    async ({ request, reply, params, query }) => {
      const png = await getShareVideoPreview(video, principalOf(request), params.history_item_id, query);
      reply.header('content-type', 'image/png').header('cache-control', 'private, max-age=3600');
      return png;
    },
    guarded,
  );
}
