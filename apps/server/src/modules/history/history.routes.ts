import {
  deleteHistoryItemRoute,
  downloadHistoryRoute,
  getHistoryItemAudioRoute,
  getHistoryItemRoute,
  getSharedItemAudioRoute,
  getSharedItemRoute,
  getShareLinkRoute,
  listHistoryRoute,
  submitHistoryFeedbackRoute,
  updatePublicUserNameRoute,
} from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { attachmentDisposition, sendStoredFile } from '../../platform/storage/send-file';
import { toHistoryItemResponse, toHistoryPage, toSharedItemResponse } from './history.present';
import {
  deleteHistoryItem,
  downloadHistory,
  findHistoryAudio,
  findHistoryItem,
  findSharedAudio,
  findSharedItem,
  giveHistoryFeedback,
  listHistory,
  shareLinkFor,
  updatePublicUserName,
} from './history.service';

/**
 * The history and sharing calls (history/voices §7): pages, items, audio, downloads, deletion, feedback,
 * share links and the public share page's two calls.
 */
export async function historyRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const db = deps.database.db;
  const guarded = { onRequest: deps.auth.requireAuth };

  registerRoute(
    app,
    listHistoryRoute,
    async ({ request, query }) => {
      return toHistoryPage(await listHistory(db, principalOf(request), query));
    },
    guarded,
  );
  registerRoute(
    app,
    getHistoryItemRoute,
    async ({ request, params }) =>
      toHistoryItemResponse(await findHistoryItem(db, principalOf(request), params.history_item_id)),
    guarded,
  );
  registerRoute(
    app,
    getHistoryItemAudioRoute,
    async ({ request, reply, params }) => {
      const audio = await findHistoryAudio(
        { db, storage: deps.storage },
        principalOf(request),
        params.history_item_id,
      );
      return sendStoredFile(request, reply, deps.storage, {
        key: audio.row.audioKey,
        size: audio.size,
        contentType: audio.row.contentType,
        // Private: the audio is the workspace's; the browser may keep it, shared caches may not.
        cacheControl: 'private, max-age=3600',
      });
    },
    guarded,
  );
  registerRoute(
    app,
    deleteHistoryItemRoute,
    async ({ request, params }) => {
      await deleteHistoryItem({ db, storage: deps.storage }, principalOf(request), params.history_item_id);
      return { status: 'ok' as const };
    },
    guarded,
  );
  registerRoute(
    app,
    downloadHistoryRoute,
    async ({ request, reply, body }) => {
      const file = await downloadHistory(
        { db, storage: deps.storage, clock: deps.clock },
        principalOf(request),
        body,
      );
      reply
        .header('content-type', file.contentType)
        .header('content-disposition', attachmentDisposition(file.fileName))
        .header('cache-control', 'private, no-store');
      return file.body;
    },
    guarded,
  );
  registerRoute(
    app,
    getShareLinkRoute,
    async ({ request, params }) =>
      shareLinkFor({ db, publicUrl: deps.config.publicUrl }, principalOf(request), params.history_item_id),
    guarded,
  );
  registerRoute(
    app,
    updatePublicUserNameRoute,
    async ({ request, body }) => ({
      status: 'ok' as const,
      public_user_name: await updatePublicUserName(db, principalOf(request).userId, body.public_user_name),
    }),
    guarded,
  );
  // Public: a share link opens without a sign-in (history/voices §2 share link).
  registerRoute(app, getSharedItemRoute, async ({ params }) =>
    toSharedItemResponse(params.share_link_id, await findSharedItem(db, params.share_link_id)),
  );
  registerRoute(app, getSharedItemAudioRoute, async ({ request, params, reply }) => {
    const audio = await findSharedAudio({ db, storage: deps.storage }, params.share_link_id);
    return sendStoredFile(request, reply, deps.storage, {
      key: audio.row.audioKey,
      size: audio.size,
      contentType: audio.row.contentType,
      // Public but revocable: deleting the item must end the link, so caches keep it only briefly.
      cacheControl: 'public, max-age=60',
    });
  });
  registerRoute(
    app,
    submitHistoryFeedbackRoute,
    async ({ request, params, body }) =>
      giveHistoryFeedback(
        { db, feedbackEnabled: deps.config.feedbackEnabled },
        principalOf(request),
        params.history_item_id,
        body,
      ),
    guarded,
  );
}
