import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type {
  StudioBookExportFormat,
  StudioChapterAcxReport,
  StudioChapterExportFormat,
} from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import { AppError, notFound } from '../../platform/errors';
import {
  type AudiobookChapterFile,
  type AudiobookMetadata,
  exportBookAudio,
  exportChapterMp3,
  exportChapterMp3s,
  exportM4b,
  safeFileName,
  zipFiles,
} from '../../platform/media/audiobook-export';
import { makeScratchDir } from '../../platform/scratch-dirs';
import { type StoredAcxReport, snapshotAcxKey, snapshotWavKey } from './studio.audio';
import { writeStudioCoverFile } from './studio.cover';
import type { StudioDeps } from './studio.deps';
import { findChapter, findProject, listChapterSnapshots, listChapters } from './studio.store';
import type { StudioChapterRow, StudioChapterSnapshotRow, StudioProjectRow } from './studio.tables';

/*
 * Parla's audiobook downloads and ACX report (issue 30 item 2; decision 25 "Studio projects"): the book
 * as m4b (chapter marks, the audiobook metadata), one mp3 or wav, or a zip of chapter mp3s; one chapter as
 * mp3 or wav; a chapter's ACX figures. Made from each chapter's newest conversion's WAV (kept beside its
 * snapshot's mp3 by studio.audio.ts), copied from storage to a scratch folder, joined and encoded there by
 * the platform's audiobook functions, and streamed to the client from the file, which is removed once
 * sent: memory stays bounded whatever the book's length.
 */

/** A download ready to send: its stream (its folder removed when the stream closes), type and name. */
export interface StudioDownload {
  stream: Readable;
  contentType: string;
  fileName: string;
}

const CONTENT_TYPES = {
  m4b: 'audio/mp4',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  zip: 'application/zip',
} as const;

async function projectOf(deps: StudioDeps, caller: RequestCaller, projectId: string) {
  const project = await findProject(deps.db, caller.workspaceId, projectId);
  if (!project) throw notFound('The project');
  return project;
}

async function chapterOf(deps: StudioDeps, caller: RequestCaller, projectId: string, chapterId: string) {
  const project = await projectOf(deps, caller, projectId);
  const chapter = await findChapter(deps.db, project.id, chapterId);
  if (!chapter) throw notFound('The chapter');
  return { project, chapter };
}

const notConverted = (message: string) => new AppError('conflict', message);

/** A chapter's newest conversion with its WAV in storage, or a 409 saying what to do. */
async function convertedChapter(
  deps: StudioDeps,
  chapter: StudioChapterRow,
): Promise<StudioChapterSnapshotRow | undefined> {
  const [newest] = await listChapterSnapshots(deps.db, chapter.id);
  if (!newest) return undefined;
  if (!(await deps.storage.stat(snapshotWavKey(newest.audioKey))))
    throw notConverted(
      `The chapter "${chapter.name}" was converted before its audio was kept for exports: convert it again, then export.`,
    );
  return newest;
}

/** The book's tags from the project's audiobook metadata (the cover: bookMetadataIn). */
function metadataOf(project: StudioProjectRow): AudiobookMetadata {
  return {
    title: project.title || project.name,
    ...(project.author ? { author: project.author } : {}),
    ...(project.isbnNumber ? { isbn: project.isbnNumber } : {}),
    ...(project.description ? { description: project.description } : {}),
    ...(project.genres.length > 0 ? { genres: project.genres } : {}),
    ...(project.language ? { language: project.language } : {}),
    ...(project.originalPublicationDate ? { date: project.originalPublicationDate } : {}),
  };
}

/** The book's tags with its cover (studio.cover.ts), written into the export's scratch folder if it has one. */
async function bookMetadataIn(
  deps: StudioDeps,
  project: StudioProjectRow,
  dir: string,
): Promise<AudiobookMetadata> {
  const coverFile = await writeStudioCoverFile(deps, project, dir);
  return { ...metadataOf(project), ...(coverFile ? { coverFile } : {}) };
}

/** Copies a stored file to disk as it is read. */
async function copyToFile(deps: StudioDeps, key: string, file: string): Promise<void> {
  const stream = await deps.storage.stream(key);
  if (!stream) throw new AppError('internal_error', 'A chapter’s audio is missing from storage.');
  await pipeline(stream, createWriteStream(file, { mode: 0o600 }));
}

/** Streams a file of a scratch folder and removes the folder when the stream ends or is abandoned. */
function streamAndRemove(file: string, dir: string): Readable {
  const stream = createReadStream(file);
  stream.once('close', () => {
    void fs.rm(dir, { recursive: true, force: true });
  });
  return stream;
}

/** Runs `make` in a new scratch folder; the folder is removed on failure (on success, with the stream). */
async function inScratch(make: (dir: string) => Promise<string>): Promise<{ file: string; dir: string }> {
  const dir = await makeScratchDir('studio-export-');
  try {
    return { file: await make(dir), dir };
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** GET /v1/studio/projects/{id}/export?format=… — the whole book. */
export async function exportProject(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  format: StudioBookExportFormat,
): Promise<StudioDownload> {
  const project = await projectOf(deps, caller, projectId);
  const chapters = await listChapters(deps.db, project.id);
  const converted: { chapter: StudioChapterRow; snapshot: StudioChapterSnapshotRow }[] = [];
  const missing: string[] = [];
  for (const chapter of chapters) {
    const snapshot = await convertedChapter(deps, chapter);
    if (snapshot) converted.push({ chapter, snapshot });
    else missing.push(chapter.name);
  }
  if (converted.length === 0)
    throw notConverted('The project has not been converted yet: convert it, then export.');
  if (missing.length > 0)
    throw notConverted(
      `These chapters have not been converted yet: ${missing.join(', ')}. Convert the project, then export.`,
    );
  const base = safeFileName(metadataOf(project).title ?? project.name);
  const { file, dir } = await inScratch(async (dir) => {
    const meta = await bookMetadataIn(deps, project, dir);
    const files: AudiobookChapterFile[] = [];
    for (const [i, { chapter, snapshot }] of converted.entries()) {
      const file = path.join(dir, `chapter-${i}.wav`);
      await copyToFile(deps, snapshotWavKey(snapshot.audioKey), file);
      files.push({ file, title: chapter.name });
    }
    const out = path.join(dir, `book.${format}`);
    if (format === 'm4b') await exportM4b(files, out, meta);
    else if (format === 'zip') {
      const mp3s = path.join(dir, 'mp3');
      await fs.mkdir(mp3s);
      const made = await exportChapterMp3s(files, mp3s, meta);
      await zipFiles(
        made.map((f) => ({ name: path.basename(f), file: f })),
        out,
      );
    } else await exportBookAudio(format, files, out, meta);
    // The chapters' WAVs are not needed while the download is sent.
    for (const f of files) await fs.rm(f.file, { force: true });
    return out;
  });
  return {
    stream: streamAndRemove(file, dir),
    contentType: CONTENT_TYPES[format],
    fileName: `${base}.${format}`,
  };
}

/** GET /v1/studio/projects/{id}/chapters/{chapter_id}/export?format=… — one chapter. */
export async function exportChapter(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  chapterId: string,
  format: StudioChapterExportFormat,
): Promise<StudioDownload> {
  const { project, chapter } = await chapterOf(deps, caller, projectId, chapterId);
  const snapshot = await convertedChapter(deps, chapter);
  if (!snapshot) throw notConverted('The chapter has not been converted yet: convert it, then export.');
  const fileName = `${safeFileName(chapter.name)}.${format}`;
  if (format === 'wav') {
    // The kept WAV as it is: nothing to make.
    const stream = await deps.storage.stream(snapshotWavKey(snapshot.audioKey));
    if (!stream) throw new AppError('internal_error', 'The chapter’s audio is missing from storage.');
    return { stream, contentType: CONTENT_TYPES.wav, fileName };
  }
  const chapters = await listChapters(deps.db, project.id);
  const number = chapters.findIndex((c) => c.id === chapter.id) + 1;
  const { file, dir } = await inScratch(async (dir) => {
    const wav = path.join(dir, 'chapter.wav');
    await copyToFile(deps, snapshotWavKey(snapshot.audioKey), wav);
    const out = path.join(dir, 'chapter.mp3');
    await exportChapterMp3(
      { file: wav, title: chapter.name },
      out,
      await bookMetadataIn(deps, project, dir),
      {
        number,
        total: chapters.length,
      },
    );
    await fs.rm(wav, { force: true });
    return out;
  });
  return { stream: streamAndRemove(file, dir), contentType: CONTENT_TYPES.mp3, fileName };
}

/** GET /v1/studio/projects/{id}/chapters/{chapter_id}/acx — the last conversion's ACX check. */
export async function chapterAcxReport(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  chapterId: string,
): Promise<StudioChapterAcxReport> {
  const { chapter } = await chapterOf(deps, caller, projectId, chapterId);
  const [newest] = await listChapterSnapshots(deps.db, chapter.id);
  const json = newest && (await deps.storage.get(snapshotAcxKey(newest.audioKey)));
  if (!json)
    throw new AppError(
      'resource_not_found',
      'This chapter has no ACX report yet: convert it, then ask again.',
    );
  const stored = JSON.parse(json.toString('utf8')) as StoredAcxReport;
  const { after, before } = stored;
  return {
    rms_db: after.rms_db,
    peak_db: after.peak_db,
    noise_floor_db: after.noise_floor_db,
    passes: after.passes,
    pass: after.pass,
    normalized: stored.normalized,
    before: {
      rms_db: before.rms_db,
      peak_db: before.peak_db,
      noise_floor_db: before.noise_floor_db,
      pass: before.pass,
    },
    gain_db: stored.gain_db,
    limiter_db: stored.limiter_db,
  };
}
