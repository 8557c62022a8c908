import type { Readable } from 'node:stream';
import {
  FEEDBACK_NOT_REVIEWED,
  feedbackMessages,
  type HistoryFeedback,
  type HistoryFeedbackRequest,
  type ListHistoryQuery,
} from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError, notFound } from '../../platform/errors';
import type { Storage } from '../../platform/storage/storage';
import { getHistoryItem, listHistoryPage, saveHistoryFeedback } from './history.store';
import type { HistoryItemRow } from './history.tables';

const itemNotFound = (id: string) => notFound(`History item ${id}`);

/** A page of the workspace's history (history/voices §7 `GET /v1/history`). */
export async function listHistory(
  db: Db,
  workspaceId: string,
  query: ListHistoryQuery,
): Promise<{ rows: HistoryItemRow[]; hasMore: boolean }> {
  let after: HistoryItemRow | undefined;
  if (query.start_after_history_item_id) {
    after = await getHistoryItem(db, workspaceId, query.start_after_history_item_id);
    if (!after) throw itemNotFound(query.start_after_history_item_id);
  }
  const fromUnix = (seconds: number | undefined) =>
    seconds === undefined ? undefined : new Date(seconds * 1000);
  return listHistoryPage(db, {
    workspaceId,
    pageSize: query.page_size,
    after,
    voiceId: query.voice_id,
    modelId: query.model_id,
    source: query.source,
    search: query.search?.trim() || undefined,
    before: fromUnix(query.date_before_unix),
    since: fromUnix(query.date_after_unix),
    direction: query.sort_direction,
  });
}

/** One item of the workspace; another workspace's item is "not found", like an unknown id. */
export async function findHistoryItem(db: Db, workspaceId: string, id: string): Promise<HistoryItemRow> {
  const row = await getHistoryItem(db, workspaceId, id);
  if (!row) throw itemNotFound(id);
  return row;
}

/** The item's audio file as stored, with its content type. */
export async function openHistoryAudio(
  deps: { db: Db; storage: Storage },
  workspaceId: string,
  id: string,
): Promise<{ row: HistoryItemRow; stream: Readable; size: number }> {
  const row = await findHistoryItem(deps.db, workspaceId, id);
  const [stream, stat] = await Promise.all([
    deps.storage.stream(row.audioKey),
    deps.storage.stat(row.audioKey),
  ]);
  if (!stream || !stat) throw notFound(`The audio of history item ${id}`);
  return { row, stream, size: stat.size };
}

/**
 * Feedback on an item (history/voices §4, §5; the text rules are checked by the contract): it replaces
 * any earlier feedback, until the item has been reviewed. Needs the `feedback_enabled` feature config.
 */
export async function giveHistoryFeedback(
  deps: { db: Db; feedbackEnabled: boolean },
  workspaceId: string,
  id: string,
  body: HistoryFeedbackRequest,
): Promise<HistoryFeedback> {
  if (!deps.feedbackEnabled)
    throw new AppError('feature_disabled', 'Feedback on generations is turned off on this server.');
  const feedback: HistoryFeedback = {
    thumbs_up: body.thumbs_up,
    feedback: body.feedback.trim(),
    emotions: body.emotions,
    inaccurate_clone: body.inaccurate_clone,
    glitches: body.glitches,
    audio_quality: body.audio_quality,
    other: body.other,
    review_status: FEEDBACK_NOT_REVIEWED,
  };
  const { saved, row } = await saveHistoryFeedback(deps.db, workspaceId, id, feedback);
  if (!row) throw itemNotFound(id);
  if (!saved) throw new AppError('feedback_already_reviewed', feedbackMessages.reviewed);
  return feedback;
}
