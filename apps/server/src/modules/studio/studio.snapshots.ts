import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';
import type { RequestCaller } from '../../platform/auth-guard';
import { notFound } from '../../platform/errors';
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

/** The project snapshot's audio: its chapters' MP3s one after another, read as they are sent. */
export async function streamSnapshot(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  snapshotId: string,
): Promise<Readable> {
  const { chapters } = await requireProjectSnapshot(deps, caller, projectId, snapshotId);
  const out = new PassThrough();
  void (async () => {
    for (const chapter of chapters) {
      const part = await deps.storage.stream(chapter.audioKey);
      if (!part) continue;
      for await (const chunk of part) if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
    }
    out.end();
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
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
  const out = new PassThrough();
  const zip = new Zip((error, data, final) => {
    if (error) out.destroy(error);
    else {
      out.write(Buffer.from(data));
      if (final) out.end();
    }
  });
  void (async () => {
    for (const [i, chapter] of chapters.entries()) {
      const entry = new ZipPassThrough(entryName(i, names.get(chapter.chapterId) ?? chapter.name));
      zip.add(entry);
      const part = await deps.storage.stream(chapter.audioKey);
      if (part) for await (const chunk of part) entry.push(new Uint8Array(chunk as Buffer));
      entry.push(new Uint8Array(0), true);
    }
    zip.end();
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
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
