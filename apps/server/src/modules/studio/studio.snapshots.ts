import { Readable } from 'node:stream';
import { emptyMp3Summary, mp3AudioFrames, mp3InfoFrame, scanMp3 } from '@parla/audio';
import { Zip, ZipPassThrough } from 'fflate';
import type { RequestCaller } from '../../platform/auth-guard';
import { AppError, notFound } from '../../platform/errors';
import type { StudioDeps } from './studio.deps';
import { presentChapterSnapshot, presentProjectSnapshot } from './studio.present';
import {
  findChapter,
  findChapterSnapshot,
  findChapterSnapshots,
  findProject,
  findProjectSnapshot,
  listChapterSnapshots,
  listChapters,
  listProjectSnapshots,
} from './studio.store';
import type { StudioChapterSnapshotRow } from './studio.tables';

/*
 * Snapshots (issue 30 item 2): what each conversion made — per chapter its audio and character alignment,
 * per project its chapters' snapshots in order. Downloads are raw bodies read from storage as they are sent
 * (the SDK hands the caller the ReadableStream): a chapter's MP3, a project's chapters one after the other
 * (MPEG frames join), or a zip of the chapters' files.
 */

async function projectOf(deps: StudioDeps, caller: RequestCaller, projectId: string) {
  const project = await findProject(deps.db, caller.workspaceId, projectId);
  if (!project) throw notFound('The project');
  return project;
}

export async function listSnapshots(deps: StudioDeps, caller: RequestCaller, projectId: string) {
  const project = await projectOf(deps, caller, projectId);
  return { snapshots: (await listProjectSnapshots(deps.db, project.id)).map(presentProjectSnapshot) };
}

/** A project snapshot's chapter snapshots in the order it lists them. */
async function chaptersOfSnapshot(deps: StudioDeps, ids: string[]): Promise<StudioChapterSnapshotRow[]> {
  const rows = new Map((await findChapterSnapshots(deps.db, ids)).map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = rows.get(id);
    return row ? [row] : [];
  });
}

async function requireProjectSnapshot(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  snapshotId: string,
) {
  const project = await projectOf(deps, caller, projectId);
  const snapshot = await findProjectSnapshot(deps.db, project.id, snapshotId);
  if (!snapshot) throw notFound('The snapshot');
  return { project, snapshot, chapters: await chaptersOfSnapshot(deps, snapshot.chapterSnapshotIds) };
}

export async function getSnapshot(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  snapshotId: string,
) {
  const { snapshot, chapters } = await requireProjectSnapshot(deps, caller, projectId, snapshotId);
  return {
    ...presentProjectSnapshot(snapshot),
    character_alignments: chapters.flatMap((c) => c.alignments),
    audio_duration_secs: snapshot.durationSecs,
  };
}

/**
 * The project snapshot's audio: its chapters' MP3s one after another, read as they are sent, under one
 * header for the whole (counted first, so a missing or damaged chapter is an error before any byte).
 */
export async function streamSnapshot(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  snapshotId: string,
): Promise<Readable> {
  const { chapters } = await requireProjectSnapshot(deps, caller, projectId, snapshotId);
  return joinMp3Parts(
    deps,
    chapters.map((c) => c.audioKey),
  );
}

/**
 * A stored part a download needs, opened; a missing one fails the download (and is logged with its key):
 * leaving it out would hand the listener a shorter book with no error.
 */
export async function openPart(deps: Pick<StudioDeps, 'storage' | 'logger'>, key: string): Promise<Readable> {
  const stream = await deps.storage.stream(key);
  if (!stream) throw missingPart(deps, key);
  return stream;
}

function missingPart(deps: Pick<StudioDeps, 'logger'>, key: string): AppError {
  deps.logger.error({ key }, 'A snapshot’s chapter audio is missing from storage');
  return new AppError(
    'internal_error',
    'A chapter’s audio is missing from storage: convert the chapter again, then download.',
  );
}

/**
 * Every part is there before a download starts, so that the common case of a missing file is a clear
 * error response rather than a download cut short (openPart still fails one removed meanwhile).
 */
export async function requireParts(
  deps: Pick<StudioDeps, 'storage' | 'logger'>,
  keys: string[],
): Promise<void> {
  for (const key of keys) if (!(await deps.storage.stat(key))) throw missingPart(deps, key);
}

/** How parts join: the bytes as they are, or (`mp3Join`) their audio frames under one header. */
export interface PartJoin {
  head: Uint8Array | undefined;
  part(chunks: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array>;
}

const plainJoin: PartJoin = { head: undefined, part: (chunks) => chunks };

/**
 * The first pass of joining chapter MP3s (review of issue 30): each part's audio frames are counted so that
 * the joined file starts with one Xing/Info header for the whole (each part's own ID3 tag and header are
 * dropped as it is sent: they describe that chapter alone, and players showed chapter 1's duration). A part
 * that holds no MPEG audio fails the join like a missing one.
 */
export async function mp3Join(
  deps: Pick<StudioDeps, 'storage' | 'logger'>,
  keys: string[],
): Promise<PartJoin> {
  const summary = emptyMp3Summary();
  for (const key of keys) {
    const before = summary.frames;
    await scanMp3(await openPart(deps, key), summary);
    if (summary.frames === before) {
      deps.logger.error({ key }, 'A snapshot’s chapter audio holds no MPEG audio frames');
      throw new AppError(
        'internal_error',
        'A chapter’s audio is damaged in storage: convert the chapter again, then download.',
      );
    }
  }
  const head = mp3InfoFrame(summary);
  if (!head && keys.length > 0)
    deps.logger.warn({ keys }, 'Chapters joined without an MP3 header: not all of one Layer III format');
  return { head, part: (chunks) => mp3AudioFrames(chunks) };
}

/**
 * The parts one after another, as a stream pulled by its reader: a chunk is read from storage only when the
 * reader wants one (backpressure), and a reader that goes away (the stream destroyed) ends the generator,
 * which closes the part being read.
 */
export function joinParts(
  deps: Pick<StudioDeps, 'storage' | 'logger'>,
  keys: string[],
  join: PartJoin = plainJoin,
): Readable {
  return Readable.from(
    (async function* () {
      if (join.head) yield join.head;
      for (const key of keys) yield* join.part(await openPart(deps, key));
    })(),
    { objectMode: false },
  );
}

/** Chapter MP3s joined into one MP3 with one header (Audio Native's published file, the snapshot stream). */
export async function joinMp3Parts(
  deps: Pick<StudioDeps, 'storage' | 'logger'>,
  keys: string[],
): Promise<Readable> {
  return joinParts(deps, keys, await mp3Join(deps, keys));
}

/** A safe file name for a chapter in the archive: its position and name. */
function entryName(index: number, name: string): string {
  const clean =
    name
      .replace(/[^\p{L}\p{N} ._-]/gu, '')
      .trim()
      .replace(/\s+/g, '_')
      .slice(0, 80) || 'chapter';
  return `${String(index + 1).padStart(3, '0')}_${clean}.mp3`;
}

/** The project snapshot as a zip of its chapters' MP3s (stored, not deflated: MP3 does not shrink). */
export async function archiveSnapshot(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  snapshotId: string,
): Promise<Readable> {
  const { project, chapters } = await requireProjectSnapshot(deps, caller, projectId, snapshotId);
  const names = new Map((await listChapters(deps.db, project.id)).map((c) => [c.id, c.name]));
  await requireParts(
    deps,
    chapters.map((c) => c.audioKey),
  );
  return zipParts(
    deps,
    chapters.map((chapter, i) => ({
      name: entryName(i, names.get(chapter.chapterId) ?? chapter.name),
      key: chapter.audioKey,
    })),
  );
}

export function zipParts(
  deps: Pick<StudioDeps, 'storage' | 'logger'>,
  entries: { name: string; key: string }[],
): Readable {
  return Readable.from(
    (async function* () {
      // fflate's Zip pushes its output through a callback as each input chunk is added: it is queued here
      // and handed to the reader before the next chunk is read from storage, so at most one chunk is held.
      const queue: Uint8Array[] = [];
      let failure: Error | null = null;
      const zip = new Zip((error, data) => {
        if (error) failure = error;
        else queue.push(data);
      });
      const drain = function* () {
        if (failure) throw failure;
        while (queue.length > 0) yield queue.shift() as Uint8Array;
      };
      for (const { name, key } of entries) {
        const part = await openPart(deps, key);
        const entry = new ZipPassThrough(name);
        zip.add(entry);
        for await (const chunk of part) {
          const data = chunk as Buffer;
          entry.push(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
          yield* drain();
        }
        entry.push(new Uint8Array(0), true);
        yield* drain();
      }
      zip.end();
      yield* drain();
    })(),
    { objectMode: false },
  );
}

// ---- Chapter snapshots --------------------------------------------------------------------------------------

async function chapterOf(deps: StudioDeps, caller: RequestCaller, projectId: string, chapterId: string) {
  const project = await projectOf(deps, caller, projectId);
  const chapter = await findChapter(deps.db, project.id, chapterId);
  if (!chapter) throw notFound('The chapter');
  return { project, chapter };
}

export async function listChapterSnapshotsOf(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  chapterId: string,
) {
  const { chapter } = await chapterOf(deps, caller, projectId, chapterId);
  return { snapshots: (await listChapterSnapshots(deps.db, chapter.id)).map(presentChapterSnapshot) };
}

async function requireChapterSnapshot(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  chapterId: string,
  snapshotId: string,
) {
  const { project, chapter } = await chapterOf(deps, caller, projectId, chapterId);
  const snapshot = await findChapterSnapshot(deps.db, project.id, snapshotId);
  if (!snapshot || snapshot.chapterId !== chapter.id) throw notFound('The snapshot');
  return snapshot;
}

export async function getChapterSnapshot(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  chapterId: string,
  snapshotId: string,
) {
  const snapshot = await requireChapterSnapshot(deps, caller, projectId, chapterId, snapshotId);
  return {
    ...presentChapterSnapshot(snapshot),
    character_alignments: snapshot.alignments,
    audio_duration_secs: snapshot.durationSecs,
  };
}

export async function streamChapterSnapshot(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  chapterId: string,
  snapshotId: string,
): Promise<Readable> {
  const snapshot = await requireChapterSnapshot(deps, caller, projectId, chapterId, snapshotId);
  const audio = await deps.storage.stream(snapshot.audioKey);
  if (!audio) throw notFound('The snapshot’s audio');
  return audio;
}

// ---- Front door for Audio Native ----------------------------------------------------------------------------

/** A project's conversion state and one snapshot's audio (its chapters' files in order). */
export interface StudioSnapshotAudio {
  state: string;
  latestSnapshotId: string | null;
  snapshot: { id: string; durationSecs: number; audioKeys: string[] } | undefined;
}

/**
 * Audio Native's player reads its project's published audio through this (issue 30 item 4): the project's
 * state, and the snapshot asked for (its latest when `snapshotId` is null). Undefined: no such project.
 */
export async function studioSnapshotAudio(
  deps: Pick<StudioDeps, 'db'>,
  workspaceId: string,
  projectId: string,
  snapshotId: string | null,
): Promise<StudioSnapshotAudio | undefined> {
  const project = await findProject(deps.db, workspaceId, projectId);
  if (!project) return undefined;
  const id = snapshotId ?? project.latestSnapshotId;
  const snapshot = id ? await findProjectSnapshot(deps.db, project.id, id) : undefined;
  return {
    state: project.state,
    latestSnapshotId: project.latestSnapshotId,
    snapshot: snapshot && {
      id: snapshot.id,
      durationSecs: snapshot.durationSecs,
      audioKeys: (await chaptersOfSnapshot(deps as StudioDeps, snapshot.chapterSnapshotIds)).map(
        (c) => c.audioKey,
      ),
    },
  };
}
