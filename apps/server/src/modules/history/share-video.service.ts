import type { Readable } from 'node:stream';
import {
  canMakeShareVideo,
  type ShareVideoQuery,
  type ShareVideoResponse,
  type ShareVideoTheme,
  shareVideoMessages,
  stripV3Tags,
} from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError, notFound } from '../../platform/errors';
import type { JobDefinition } from '../../platform/jobs/job-definition';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { JobRow } from '../../platform/jobs/jobs.tables';
import { Limiter } from '../../platform/limiter';
import type { Storage } from '../../platform/storage/storage';
import { toShareVideoResponse } from './history.present';
import { findHistoryItem } from './history.service';
import { getHistoryItem, type HistoryScope } from './history.store';
import type { HistoryItemRow } from './history.tables';
import { deleteShareVideos, itemFolder } from './share-video.files';
import { renderShareVideo, renderShareVideoPreview, type ShareVideoSource } from './share-video.render';

/** What the render job is given: the item and the choice of look. */
export interface ShareVideoJobPayload {
  workspaceId: string;
  historyItemId: string;
  theme: ShareVideoTheme;
  stripV3Tags: boolean;
}

/** What the video calls use. */
export interface ShareVideoDeps {
  db: Db;
  storage: Storage;
  queue: JobQueue;
  /** The render job (share-video.jobs.ts), passed in so this file and the job's do not import each other. */
  renderJob: JobDefinition<ShareVideoJobPayload>;
  /** The `tts_video_generation` feature config (TTS_VIDEO_GENERATION). */
  enabled: boolean;
  /** The server's public URL, which `video_url` starts with. */
  publicUrl: string;
  /** How long a render call waits for its job; past it the call answers 504 and the job goes on. */
  waitMs?: number;
  /** How often the job's state is read while waiting. */
  pollMs?: number;
}

/** Renders take ~0.2 s per second of audio here: five minutes covers the longest text with room to spare. */
const DEFAULT_WAIT_MS = 5 * 60_000;
const DEFAULT_POLL_MS = 200;
/**
 * A render call re-queues a job that had settled before it (failed, or done with its file gone) at most
 * this many times — more only when other calls keep settling the same key at the same moment.
 */
const MAX_RENDER_ATTEMPTS = 3;
/** The look of the renders: a new layout gets new keys, so no render of an older look is served. */
const LAYOUT_VERSION = 'v1';

/** Where an item's videos and previews live (deleteShareVideos removes the folder). */

function renderKey(
  workspaceId: string,
  itemId: string,
  choice: { theme: ShareVideoTheme; stripV3Tags: boolean },
  extension: 'mp4' | 'png',
): string {
  const tags = choice.stripV3Tags ? 'stripped' : 'tagged';
  return `${itemFolder(workspaceId, itemId)}${LAYOUT_VERSION}-${choice.theme}-${tags}.${extension}`;
}

/**
 * The text a video shows: the item's text, or a dialogue's lines one per paragraph; with `strip` the
 * bracketed v3 tags are taken out (stripV3Tags); runs of spaces are collapsed either way.
 */
export function shareVideoText(row: Pick<HistoryItemRow, 'text' | 'dialogue'>, strip: boolean): string {
  const paragraphs = row.dialogue?.length ? row.dialogue.map((line) => line.text) : [row.text];
  const tidy = (text: string) => text.replace(/\s+/g, (run) => (/[\n\r]/.test(run) ? '\n' : ' ')).trim();
  return paragraphs
    .map((text) => (strip ? stripV3Tags(text) : tidy(text)))
    .filter(Boolean)
    .join('\n');
}

/** The item, when videos are on and it is a text-to-speech item (history/voices §5 "Video generation"). */
async function findVideoItem(
  deps: Pick<ShareVideoDeps, 'db' | 'enabled'>,
  scope: HistoryScope,
  id: string,
): Promise<HistoryItemRow> {
  if (!deps.enabled)
    throw new AppError(
      'feature_disabled',
      'Share videos are turned off on this server (TTS_VIDEO_GENERATION).',
    );
  const row = await findHistoryItem(deps.db, scope, id);
  if (!canMakeShareVideo(row.source)) throw new AppError('bad_request', shareVideoMessages.onlyTextToSpeech);
  return row;
}

/** What a render needs, read from the item and its stored audio. */
async function renderSource(
  storage: Storage,
  row: HistoryItemRow,
  choice: { theme: ShareVideoTheme; stripV3Tags: boolean },
): Promise<ShareVideoSource | undefined> {
  const audio = await storage.get(row.audioKey);
  if (!audio) return undefined;
  return {
    audio,
    outputFormat: row.outputFormat,
    durationMs: row.durationMs,
    text: shareVideoText(row, choice.stripV3Tags),
    theme: choice.theme,
  };
}

const renderFailed = () =>
  new AppError('internal_error', 'The video could not be rendered. Please try again.', { status: 500 });

/** Reads the job until it has settled or `deadline` passes (then undefined). */
async function waitForJob(
  deps: ShareVideoDeps,
  jobId: string,
  deadline: number,
): Promise<JobRow | undefined> {
  for (;;) {
    const job = await deps.queue.getJob(jobId);
    if (!job) return undefined;
    if (job.state === 'completed' || job.state === 'failed') return job;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, deps.pollMs ?? DEFAULT_POLL_MS));
  }
}

/**
 * Has the render job run and waits for it. The job's singleton key is the item, theme and tag choice, so
 * calls at the same time (a double click) share one render. A job that had failed before this call has
 * its key freed and a new one is queued (the "Try again" of the dialog); one that fails while this call
 * waits fails the call.
 */
async function renderThroughQueue(
  deps: ShareVideoDeps,
  payload: ShareVideoJobPayload,
  key: string,
): Promise<void> {
  const base = `share-video:${payload.historyItemId}:${payload.theme}:${payload.stripV3Tags ? 'stripped' : 'tagged'}`;
  const deadline = Date.now() + (deps.waitMs ?? DEFAULT_WAIT_MS);
  for (let attempt = 0; attempt < MAX_RENDER_ATTEMPTS; attempt++) {
    const jobId = await deps.queue.enqueue(deps.renderJob, payload, {
      workspaceId: payload.workspaceId,
      singletonKey: base,
    });
    const before = await deps.queue.getJob(jobId);
    const settledBefore = before?.state === 'failed' || before?.state === 'completed';
    const job = settledBefore ? before : await waitForJob(deps, jobId, deadline);
    if (!job) {
      throw new AppError('service_unavailable', 'The video is still rendering. Try again in a moment.', {
        status: 504,
      });
    }
    if (job.state === 'completed' && (await deps.storage.stat(key))) return;
    const skipped = (job.result as { skipped?: string } | null)?.skipped;
    if (job.state === 'completed' && skipped)
      throw notFound(`The audio of history item ${payload.historyItemId}`);
    if (job.state === 'failed' && !settledBefore) throw renderFailed();
    // Failed before this call, or done but its file is gone: free the key and render again.
    await deps.queue.releaseSingletonKey(job.id);
  }
  throw renderFailed();
}

/**
 * `POST /v1/history/{id}/video` (history/voices §3, §5): renders the item's video in a theme, as a job,
 * unless it was rendered before, and answers its URL once it exists.
 */
export async function generateShareVideo(
  deps: ShareVideoDeps,
  scope: HistoryScope,
  id: string,
  query: ShareVideoQuery,
): Promise<ShareVideoResponse> {
  const row = await findVideoItem(deps, scope, id);
  const choice = { theme: query.theme, stripV3Tags: query.strip_v3_tags };
  const key = renderKey(row.workspaceId, row.id, choice, 'mp4');
  if (!(await deps.storage.stat(key))) {
    await renderThroughQueue(deps, { workspaceId: row.workspaceId, historyItemId: row.id, ...choice }, key);
  }
  return toShareVideoResponse(deps.publicUrl, row.id, query);
}

/** `GET /v1/history/{id}/video`: the rendered video; not found until a render call has made it. */
export async function openShareVideo(
  deps: Pick<ShareVideoDeps, 'db' | 'storage' | 'enabled'>,
  scope: HistoryScope,
  id: string,
  query: ShareVideoQuery,
): Promise<{ stream: Readable; size: number }> {
  const row = await findVideoItem(deps, scope, id);
  const key = renderKey(
    row.workspaceId,
    row.id,
    { theme: query.theme, stripV3Tags: query.strip_v3_tags },
    'mp4',
  );
  const [stream, stat] = await Promise.all([deps.storage.stream(key), deps.storage.stat(key)]);
  if (!stream || !stat) {
    stream?.destroy();
    throw notFound(`A video of history item ${id} in this theme (render it with POST first)`);
  }
  return { stream, size: stat.size };
}

/**
 * `GET /v1/history/{id}/video/preview` (history/voices §3): one frame of the video as a PNG, rendered at
 * once (a fraction of a second) and kept for the next call.
 */
export async function getShareVideoPreview(
  deps: Pick<ShareVideoDeps, 'db' | 'storage' | 'enabled'>,
  scope: HistoryScope,
  id: string,
  query: ShareVideoQuery,
): Promise<Buffer> {
  const row = await findVideoItem(deps, scope, id);
  const choice = { theme: query.theme, stripV3Tags: query.strip_v3_tags };
  const key = renderKey(row.workspaceId, row.id, choice, 'png');
  const kept = await deps.storage.get(key);
  if (kept) return kept;
  return previewRenders.run(async () => {
    // Another call may have made it while this one waited for its turn.
    const made = await deps.storage.get(key);
    if (made) return made;
    const source = await renderSource(deps.storage, row, choice);
    if (!source) throw notFound(`The audio of history item ${id}`);
    const png = await renderShareVideoPreview(source);
    await deps.storage.put(key, png);
    // An item deleted while its preview rendered keeps nothing.
    if (!(await getHistoryItem(deps.db, row.workspaceId, row.id)))
      await deleteShareVideos(deps.storage, row.workspaceId, row.id);
    return png;
  });
}

/**
 * At most this many previews render at once in a process (each is an ffmpeg run in the request): more
 * wait their turn, so a burst of theme changes cannot start ffmpeg without bound.
 */
const PREVIEW_RENDERS_AT_ONCE = 2;

const previewRenders = new Limiter(PREVIEW_RENDERS_AT_ONCE);

/**
 * The render job's work (share-video.jobs.ts): renders and stores the video unless it exists. An item
 * deleted before or during the render leaves nothing behind.
 */
export async function renderShareVideoForJob(
  deps: { db: Db; storage: Storage },
  payload: ShareVideoJobPayload,
  options: { signal?: AbortSignal; onProgress?: (share: number) => void } = {},
): Promise<{ key: string; bytes: number } | { skipped: string }> {
  const row = await getHistoryItem(deps.db, payload.workspaceId, payload.historyItemId);
  if (!row) return { skipped: 'the history item is gone' };
  const key = renderKey(payload.workspaceId, row.id, payload, 'mp4');
  const existing = await deps.storage.stat(key);
  if (existing) return { key, bytes: existing.size };
  const source = await renderSource(deps.storage, row, payload);
  if (!source) return { skipped: 'the audio of the history item is gone' };
  const video = await renderShareVideo(source, options);
  await deps.storage.put(key, video);
  if (!(await getHistoryItem(deps.db, payload.workspaceId, row.id))) {
    await deleteShareVideos(deps.storage, payload.workspaceId, row.id);
    return { skipped: 'the history item was deleted while it rendered' };
  }
  return { key, bytes: video.length };
}
