import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type CreateDubbingFields,
  type CreateDubbingResponse,
  DUBBING_MAX_SECONDS,
  DUBBING_MAX_UPLOAD_BYTES,
  type DubbingMetadata,
  type DubbingTranscriptFormat,
  dubbingCredits,
  type ListDubbingQuery,
  type ListDubbingResponse,
} from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import { AppError, invalid, notFound } from '../../platform/errors';
import { dubCreated } from '../../platform/events/catalog';
import { newId } from '../../platform/ids';
import { probeUploadFile } from '../../platform/media/probe-upload';
import type { DiskUpload } from '../../platform/multipart';
import { assertAffordable } from '../metering';
import { downloadSourceUrl } from '../speech-to-text';
import type { DubbingDeps } from './dubbing.deps';
import { dubFolder, workspaceDubFolder } from './dubbing.files';
import { dubJob } from './dubbing.jobs';
import { targetProblem } from './dubbing.languages';
import { trimSource } from './dubbing.media';
import { toDubbingMetadata } from './dubbing.present';
import { deleteDubRow, findDub, insertDub, listDubRows } from './dubbing.store';
import type { DubRow } from './dubbing.tables';
import { transcriptOf } from './dubbing.transcripts';

/** A dub of the caller's workspace, or 404 (another workspace's dub is as absent as an unknown id). */
export async function dubOf(
  deps: Pick<DubbingDeps, 'db'>,
  caller: RequestCaller,
  dubId: string,
): Promise<DubRow> {
  const row = await findDub(deps.db, caller.workspaceId, dubId);
  if (!row) throw notFound('The dub');
  return row;
}

/** How a language pair is translated on this installation, as a dub's `targets` say it. */
function routeOf(deps: Pick<DubbingDeps, 'translation'>) {
  return (source: string, target: string): string | null => {
    const route = deps.translation.route(source, target);
    return route ? `${route.adapter}: ${route.languages.join(' → ')}` : null;
  };
}

/** The expected time of a dub: measured in bench/ (about half the source's length on 2 cores), plus start-up. */
function expectedSeconds(sourceSec: number, languages: number): number {
  return Math.round(10 + sourceSec * 0.6 * languages);
}

/**
 * `POST /v1/dubbing`: checks the source (its content, its length, an audio track), the languages (a route
 * to translate and a voice to speak, before anything is charged) and the plan's credits, stores the source
 * (cut to start/end time) and queues the job. Nothing is charged here: the job reserves the credits and
 * settles them when the dub is done (refunded if it fails).
 */
export async function createDub(
  deps: DubbingDeps,
  caller: RequestCaller,
  form: { fields: CreateDubbingFields; file: DiskUpload | undefined; csv: string | undefined },
  dir: string,
  signal: AbortSignal,
): Promise<CreateDubbingResponse> {
  const { fields } = form;
  if (form.file && fields.source_url)
    throw invalid('source_url', 'Send either a file or a source_url, not both.');
  let file = form.file?.path;
  let fileName = form.file?.filename ?? null;
  if (!file && fields.source_url) {
    file = path.join(dir, 'download');
    await downloadSourceUrl(fields.source_url, file, deps.urlPolicy, signal);
    fileName = decodeURIComponent(new URL(fields.source_url).pathname.split('/').pop() || '') || null;
  }
  if (!file) throw invalid('file', 'Send the video or audio to dub as `file`, or a `source_url`.');
  if (fields.mode === 'manual' && !form.csv)
    throw invalid('csv_file', 'The manual mode needs a csv_file with the segments.');
  const targets = fields.target_lang ? [fields.target_lang] : [];
  if (targets.length === 0) throw invalid('target_lang', 'Choose the language to dub into.');
  for (const target of targets) {
    const problem = targetProblem(
      deps,
      fields.source_lang === 'auto' ? undefined : fields.source_lang,
      target,
    );
    if (problem) throw new AppError('unsupported_language', problem);
  }
  const { size } = await fs.stat(file);
  const probe = await probeUploadFile(file, size, {
    maxBytes: DUBBING_MAX_UPLOAD_BYTES,
    maxSeconds: DUBBING_MAX_SECONDS,
  });
  if (!probe.hasAudio)
    throw new AppError(
      'bad_request',
      probe.hasVideo ? 'This video has no audio track to dub.' : 'This file has no audio to dub.',
    );
  const length = probe.durationSeconds ?? 0;
  const start = Math.min(fields.start_time ?? 0, length);
  const end = Math.min(fields.end_time ?? length, length);
  if (end - start < 0.5)
    throw invalid(
      'start_time',
      'The part to dub is shorter than half a second (check start_time and end_time).',
    );
  const seconds = end - start;
  const watermark = fields.watermark && probe.kind === 'video';
  const credits = dubbingCredits(seconds, targets.length, watermark);
  await assertAffordable(deps, caller, credits, 'mp3_44100_128');

  const id = newId();
  const key = `${dubFolder(caller.workspaceId, id)}source.mov`;
  const trimmed = path.join(dir, 'source.mov');
  await trimSource(file, trimmed, { startSec: start, endSec: end });
  await deps.storage.put(key, createReadStream(trimmed));
  let csvKey: string | null = null;
  if (form.csv) {
    csvKey = `${dubFolder(caller.workspaceId, id)}segments.csv`;
    await deps.storage.put(csvKey, Buffer.from(form.csv, 'utf8'));
  }
  const name = fields.name?.trim() || (fileName ? fileName.replace(/\.[^.]+$/, '') : '') || 'Untitled dub';
  await insertDub(deps.db, {
    id,
    workspaceId: caller.workspaceId,
    userId: caller.userId,
    apiKeyId: caller.apiKeyId ?? null,
    requestId: caller.requestId,
    name: name.slice(0, 200),
    status: 'dubbing',
    stage: 'queued',
    progress: 0,
    progressMessage: 'Waiting to start',
    sourceLangRequested: fields.source_lang,
    sourceLanguage: fields.source_lang === 'auto' ? null : fields.source_lang,
    targetLanguages: targets,
    options: {
      numSpeakers: fields.num_speakers,
      watermark,
      startTime: fields.start_time ?? null,
      endTime: fields.end_time ?? null,
      highestResolution: fields.highest_resolution,
      dropBackgroundAudio: fields.drop_background_audio,
      useProfanityFilter: fields.use_profanity_filter,
      dubbingStudio: fields.dubbing_studio,
      disableVoiceCloning: fields.disable_voice_cloning,
      mode: fields.mode,
    },
    input: {
      kind: probe.kind,
      fileName,
      contentType: probe.kind === 'video' ? 'video/mp4' : 'audio/mpeg',
      durationSec: seconds,
      key,
    },
    csvKey,
    credits,
    expectedDurationSec: expectedSeconds(seconds, targets.length),
  });
  await deps.queue.enqueue(
    dubJob,
    { dubId: id, workspaceId: caller.workspaceId },
    { singletonKey: `dub:${id}` },
  );
  await deps.events.publish(dubCreated, {
    userId: caller.userId,
    workspaceId: caller.workspaceId,
    dubbingId: id,
  });
  return { dubbing_id: id, expected_duration_sec: expectedSeconds(seconds, targets.length) };
}

const cursorOf = (row: DubRow) =>
  Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');

function parseCursor(cursor: string | undefined): { createdAt: Date; id: string } | undefined {
  if (!cursor) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (!id || Number.isNaN(createdAt.getTime()))
    throw invalid('cursor', 'The cursor is not one this server gave.', 'query');
  return { createdAt, id };
}

/** `GET /v1/dubbing`: the workspace's dubs, a page at a time. */
export async function listDubs(
  deps: Pick<DubbingDeps, 'db' | 'translation'>,
  caller: RequestCaller,
  query: ListDubbingQuery,
): Promise<ListDubbingResponse> {
  const rows = await listDubRows(deps.db, caller.workspaceId, {
    limit: query.page_size + 1,
    after: parseCursor(query.cursor),
    status: query.dubbing_status,
    creator:
      query.filter_by_creator === 'all'
        ? undefined
        : { userId: caller.userId, mine: query.filter_by_creator === 'personal' },
    ascending: query.order_direction === 'ASCENDING',
  });
  const page = rows.slice(0, query.page_size);
  const last = page.at(-1);
  const hasMore = rows.length > query.page_size;
  return {
    dubs: page.map((row) => toDubbingMetadata(row, routeOf(deps))),
    has_more: hasMore,
    next_cursor: hasMore && last ? cursorOf(last) : null,
  };
}

export async function getDub(
  deps: Pick<DubbingDeps, 'db' | 'translation'>,
  caller: RequestCaller,
  dubId: string,
): Promise<DubbingMetadata> {
  return toDubbingMetadata(await dubOf(deps, caller, dubId), routeOf(deps));
}

/** `DELETE /v1/dubbing/{id}`: the dub, its parts (cascade) and its files; a running job finds it gone and stops. */
export async function deleteDub(
  deps: DubbingDeps,
  caller: RequestCaller,
  dubId: string,
): Promise<{ status: 'ok' }> {
  if (!(await deleteDubRow(deps.db, caller.workspaceId, dubId))) throw notFound('The dub');
  await deleteDubFiles(deps, caller.workspaceId, dubId);
  return { status: 'ok' };
}

export async function deleteDubFiles(deps: Pick<DubbingDeps, 'storage'>, workspaceId: string, dubId: string) {
  for (const key of await deps.storage.list(dubFolder(workspaceId, dubId))) await deps.storage.delete(key);
}

export async function deleteWorkspaceDubFiles(deps: Pick<DubbingDeps, 'storage'>, workspaceId: string) {
  for (const key of await deps.storage.list(workspaceDubFolder(workspaceId))) await deps.storage.delete(key);
}

/** A transcript of the dub in its source language or a target, in a format. */
export async function dubTranscript(
  deps: DubbingDeps,
  caller: RequestCaller,
  dubId: string,
  language: string,
  format: DubbingTranscriptFormat,
) {
  const dub = await dubOf(deps, caller, dubId);
  return transcriptOf(deps, dub, language.toLowerCase(), format);
}
