import {
  getHistoryItemAudioRoute,
  getHistoryItemRoute,
  listHistoryRoute,
  submitHistoryFeedbackRoute,
} from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { toHistoryItemResponse } from './history.present';
import { findHistoryItem, giveHistoryFeedback, listHistory, openHistoryAudio } from './history.service';

/**
 * The history calls (history/voices §7) that the speech page and the player need: reading and feedback;
 * sharing, deletion and downloads of several items come with the history issue.
 */
export async function historyRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const db = deps.database.db;
  const guarded = { preHandler: deps.auth.requireAuth };

  registerRoute(
    app,
    listHistoryRoute,
    async ({ request, query }) => {
      const page = await listHistory(db, principalOf(request).workspaceId, query);
      const last = page.rows.at(-1);
      return {
        history: page.rows.map(toHistoryItemResponse),
        last_history_item_id: last?.id ?? null,
        has_more: page.hasMore,
        scanned_until: last ? Math.floor(last.createdAt.getTime() / 1000) : null,
      };
    },
    guarded,
  );
  registerRoute(
    app,
    getHistoryItemRoute,
    async ({ request, params }) =>
      toHistoryItemResponse(
        await findHistoryItem(db, principalOf(request).workspaceId, params.history_item_id),
      ),
    guarded,
  );
  registerRoute(
    app,
    getHistoryItemAudioRoute,
    async ({ request, reply, params }) => {
      const audio = await openHistoryAudio(
        { db, storage: deps.storage },
        principalOf(request).workspaceId,
        params.history_item_id,
      );
      reply
        .header('content-type', audio.row.contentType)
        .header('content-length', String(audio.size))
        // Private: the audio is the workspace's; the browser may keep it, shared caches may not.
        .header('cache-control', 'private, max-age=3600');
      return audio.stream;
    },
    guarded,
  );
  registerRoute(
    app,
    submitHistoryFeedbackRoute,
    async ({ request, params, body }) =>
      giveHistoryFeedback(
        { db, feedbackEnabled: deps.config.feedbackEnabled },
        principalOf(request).workspaceId,
        params.history_item_id,
        body,
      ),
    guarded,
  );
}
