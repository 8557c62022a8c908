import {
  type DownloadHistoryRequest,
  describeOutputFormat,
  FEEDBACK_NOT_REVIEWED,
  feedbackMessages,
  HISTORY_DOWNLOAD_MAX_BYTES,
  type HistoryFeedback,
  type HistoryFeedbackRequest,
  historyItemFileName,
  historyVoiceName,
  historyZipFileName,
  type ListHistoryQuery,
  type NamingCategory,
  OUTPUT_FORMATS,
  type OutputFormat,
  type ResourceRole,
  type ShareLinkResponse,
} from '@parla/contracts';
import { zipSync } from 'fflate';
import type { Db } from '../../platform/db/client';
import { AppError, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { decodeToWav } from '../../platform/media/encode-audio';
import type { Storage } from '../../platform/storage/storage';
import { getUser, updateUser } from '../users';
import { callerRoleOn, forgetShares, roleProblem } from '../workspaces';
import { toShareLinkResponse } from './history.present';
import {
  deleteHistoryRow,
  ensureShareLinkId,
  getHistoryItem,
  getHistoryItems,
  getSharedItem,
  type HistoryScope,
  insertHistoryItem,
  listHistoryPage,
  saveHistoryFeedback,
  scopeWorkspace,
} from './history.store';
import type { HistoryItemInsert, HistoryItemRow } from './history.tables';
import { deleteShareVideos } from './share-video.files';

const itemNotFound = (id: string) => notFound(`History item ${id}`);

/**
 * Why a change found no item: the caller cannot see it (404), or it was shared with them with too small
 * a role for this (403).
 */
async function missingOrForbidden(
  db: Db,
  scope: HistoryScope,
  id: string,
  needed: ResourceRole,
): Promise<AppError> {
  const row = typeof scope === 'string' ? undefined : await getHistoryItem(db, scope, id);
  if (!row || typeof scope === 'string') return itemNotFound(id);
  const held = await callerRoleOn(db, scope, 'history_item', {
    id: row.id,
    workspaceId: row.workspaceId,
    creatorId: row.userId,
  });
  return roleProblem('history_item', held, needed) ?? itemNotFound(id);
}

/** A page of the workspace's history (history/voices §7 `GET /v1/history`). */
export async function listHistory(
  db: Db,
  scope: HistoryScope,
  query: ListHistoryQuery,
): Promise<{ rows: HistoryItemRow[]; hasMore: boolean }> {
  let after: HistoryItemRow | undefined;
  if (query.start_after_history_item_id) {
    after = await getHistoryItem(db, scope, query.start_after_history_item_id);
    if (!after) throw itemNotFound(query.start_after_history_item_id);
  }
  const fromUnix = (seconds: number | undefined) =>
    seconds === undefined ? undefined : new Date(seconds * 1000);
  return listHistoryPage(db, {
    scope,
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
export async function findHistoryItem(db: Db, scope: HistoryScope, id: string): Promise<HistoryItemRow> {
  const row = await getHistoryItem(db, scope, id);
  if (!row) throw itemNotFound(id);
  return row;
}

/** The item's audio file as stored: its row (content type, key) and size; the route streams it. */
export async function findHistoryAudio(
  deps: { db: Db; storage: Storage },
  scope: HistoryScope,
  id: string,
): Promise<{ row: HistoryItemRow; size: number }> {
  const row = await findHistoryItem(deps.db, scope, id);
  const stat = await deps.storage.stat(row.audioKey);
  if (!stat) throw notFound(`The audio of history item ${id}`);
  return { row, size: stat.size };
}

/**
 * Feedback on an item (history/voices §4, §5; the text rules are checked by the contract): it replaces
 * any earlier feedback, until the item has been reviewed. Needs the `feedback_enabled` feature config.
 */
export async function giveHistoryFeedback(
  deps: { db: Db; feedbackEnabled: boolean },
  scope: HistoryScope,
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
  const { saved, row } = await saveHistoryFeedback(deps.db, scope, id, feedback);
  if (!row) throw await missingOrForbidden(deps.db, scope, id, 'commenter');
  if (!saved) throw new AppError('feedback_already_reviewed', feedbackMessages.reviewed);
  return feedback;
}

/**
 * Deletes an item and its audio (history/voices §7 `DELETE /v1/history/{id}`). The row goes first: once
 * it is gone nothing can reach the file, and a file left by a failed removal is only space.
 */
export async function deleteHistoryItem(
  deps: { db: Db; storage: Storage },
  scope: HistoryScope,
  id: string,
): Promise<void> {
  const row = await deleteHistoryRow(deps.db, scope, id);
  if (!row) throw await missingOrForbidden(deps.db, scope, id, 'admin');
  await forgetShares(deps.db, 'history_item', row.id);
  await deps.storage.delete(row.audioKey).catch(() => undefined);
  // Its share videos and previews too (a render still running removes its own file when it finds the row gone).
  await deleteShareVideos(deps.storage, scopeWorkspace(scope), id).catch(() => undefined);
}

const knownFormat = (format: string): OutputFormat =>
  (OUTPUT_FORMATS as readonly string[]).includes(format) ? (format as OutputFormat) : 'mp3_44100_128';

const NAMING_CATEGORIES: readonly NamingCategory[] = ['generated', 'professional', 'premade', 'cloned'];

/** An item's download name (history/voices §3, §5), with the extension of the file sent. */
export function downloadName(row: HistoryItemRow, extension: string): string {
  const category = NAMING_CATEGORIES.find((c) => c === row.voiceCategory) ?? 'premade';
  return historyItemFileName(
    {
      name: historyVoiceName({ voice_name: row.voiceName, dialogue: row.dialogue }),
      date_unix: Math.floor(row.createdAt.getTime() / 1000),
      category,
      model_id: row.modelId,
      voice_settings: row.settings as Record<string, number | boolean | null>,
    },
    extension,
  );
}

/** What an item adds to a download: its stored size, or the size of its samples as 16-bit WAV. */
function downloadBytes(row: HistoryItemRow, toWav: boolean): number {
  if (!toWav) return row.audioBytes;
  const { sampleRate } = describeOutputFormat(knownFormat(row.outputFormat));
  return 44 + Math.ceil((row.durationMs / 1000) * sampleRate) * 2;
}

export interface HistoryDownload {
  fileName: string;
  contentType: string;
  body: Buffer;
}

/** One item's file for a download: as stored, or decoded to WAV. */
async function downloadFile(storage: Storage, row: HistoryItemRow, toWav: boolean) {
  const stored = await storage.get(row.audioKey);
  if (!stored) throw notFound(`The audio of history item ${row.id}`);
  const format = knownFormat(row.outputFormat);
  if (!toWav) {
    const spec = describeOutputFormat(format);
    return { body: stored, contentType: row.contentType, fileName: downloadName(row, spec.extension) };
  }
  const body = await decodeToWav(stored, format);
  return { body, contentType: 'audio/wav', fileName: downloadName(row, 'wav') };
}

/**
 * `POST /v1/history/download`: one item → its audio file; several → a zip of them (stored, not
 * compressed: audio does not compress). `output_format=wav` decodes each to WAV. Every id must be one of
 * the workspace's items, or nothing is sent.
 */
export async function downloadHistory(
  deps: { db: Db; storage: Storage; clock: { now(): Date } },
  scope: HistoryScope,
  body: DownloadHistoryRequest,
): Promise<HistoryDownload> {
  const ids = [...new Set(body.history_item_ids)];
  const rows = await getHistoryItems(deps.db, scope, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing) throw itemNotFound(missing);
  const toWav = body.output_format === 'wav';
  const ordered = ids.map((id) => byId.get(id) as HistoryItemRow);
  const bytes = ordered.reduce((sum, row) => sum + downloadBytes(row, toWav), 0);
  if (bytes > HISTORY_DOWNLOAD_MAX_BYTES) {
    const mb = (n: number) => Math.ceil(n / (1024 * 1024));
    throw new AppError(
      'payload_too_large',
      `These items come to about ${mb(bytes)} MB${toWav ? ' as WAV' : ''}; one download holds at most ${mb(HISTORY_DOWNLOAD_MAX_BYTES)} MB. Download fewer at a time.`,
    );
  }
  if (ordered.length === 1) return downloadFile(deps.storage, ordered[0] as HistoryItemRow, toWav);

  const entries: Record<string, Uint8Array> = {};
  for (const row of ordered) {
    const file = await downloadFile(deps.storage, row, toWav);
    // Two items of the same voice and second would share a name: the later ones are numbered.
    const dot = file.fileName.lastIndexOf('.');
    const [base, extension] = [file.fileName.slice(0, dot), file.fileName.slice(dot)];
    let name = file.fileName;
    for (let n = 2; name in entries; n++) name = `${base}_${n}${extension}`;
    entries[name] = file.body;
  }
  const zip = zipSync(entries, { level: 0, mtime: deps.clock.now() });
  return {
    fileName: historyZipFileName(Math.floor(deps.clock.now().getTime() / 1000)),
    contentType: 'application/zip',
    body: Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength),
  };
}

/**
 * The public link of an item (history/voices §3 "Share-link response"): made on the first call and the
 * same after; an absolute URL of the web app's share page.
 */
export async function shareLinkFor(
  deps: { db: Db; publicUrl: string },
  principal: { workspaceId: string; userId: string },
  id: string,
): Promise<ShareLinkResponse> {
  const shareLinkId = await ensureShareLinkId(deps.db, principal, id, {
    shareLinkId: newId(24),
    userId: principal.userId,
  });
  if (!shareLinkId) throw await missingOrForbidden(deps.db, principal, id, 'editor');
  const user = await getUser(deps.db, principal.userId);
  return toShareLinkResponse(deps.publicUrl, shareLinkId, user?.publicUserName ?? null);
}

const shareNotFound = () => notFound('This share link');

/** What a public share page shows; a deleted item (or an unknown link) is not found. */
export async function findSharedItem(db: Db, shareLinkId: string) {
  const shared = await getSharedItem(db, shareLinkId);
  if (!shared) throw shareNotFound();
  return shared;
}

/** The audio file behind a public share link: its row and where it is (the route streams it, ranges too). */
export async function findSharedAudio(deps: { db: Db; storage: Storage }, shareLinkId: string) {
  const { row } = await findSharedItem(deps.db, shareLinkId);
  const stat = await deps.storage.stat(row.audioKey);
  if (!stat) throw shareNotFound();
  return { row, size: stat.size };
}

/** `POST /v1/user/update-public-user-name`: an empty name clears it. */
export async function updatePublicUserName(db: Db, userId: string, name: string): Promise<string | null> {
  const publicUserName = name.trim() || null;
  await updateUser(db, userId, { publicUserName });
  return publicUserName;
}

/**
 * Keeps a generation's audio and writes its history item; `alongside` runs in the transaction that writes
 * the row (metering settles the generation's credits there, so the item exists exactly when they are kept).
 */
export function recordHistoryItem(
  deps: { db: Db; storage: Storage },
  item: HistoryItemInsert,
  audio: Buffer,
  alongside?: (tx: Db) => Promise<void>,
): Promise<string> {
  return insertHistoryItem(deps, item, audio, alongside);
}
