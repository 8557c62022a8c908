import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { STUDIO_MAX_COVER_BYTES, type StudioCoverType } from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import { AppError, notFound } from '../../platform/errors';
import type { StudioDeps } from './studio.deps';
import { presentProject } from './studio.present';
import { projectFolder } from './studio.rules';
import { findProject, listChapters, updateProject } from './studio.store';
import type { StudioProjectRow } from './studio.tables';

/*
 * A Studio project's cover image (issue 30: audiobook metadata with a cover). Kept in the project's
 * storage folder (so deleting the project deletes it) as `cover/image.png` or `.jpg`; the project's
 * `cover_image_url` then names the route that reads it back, with a version so a new cover is not the old
 * one from a cache. Its own file: the service, store and exports belong to other work in flight.
 */

const EXTENSIONS: Record<StudioCoverType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The image's kind from its first bytes (the PNG signature, JPEG's SOI marker and a segment marker), or
 * undefined: a name or a declared type is never trusted.
 */
export function coverTypeOf(bytes: Uint8Array): StudioCoverType | undefined {
  if (bytes.length > PNG_SIGNATURE.length && Buffer.from(bytes.subarray(0, 8)).equals(PNG_SIGNATURE))
    return 'image/png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return undefined;
}

/** Why an upload cannot be a cover (the API's 4xx), or undefined when it can. */
export function coverProblem(file: { bytes: Uint8Array } | undefined): AppError | undefined {
  if (!file || file.bytes.length === 0)
    return new AppError('invalid_request', 'Send the cover image as the multipart field "file".');
  if (file.bytes.length > STUDIO_MAX_COVER_BYTES)
    return new AppError(
      'payload_too_large',
      `The cover image is larger than ${STUDIO_MAX_COVER_BYTES / 1024 / 1024} MB, the most a project takes.`,
    );
  if (!coverTypeOf(file.bytes))
    return new AppError('invalid_request', 'The cover image must be a PNG or JPEG file.');
  return undefined;
}

/** The cover's folder (storage lists folders, not name prefixes): it holds `image.png` or `image.jpg`. */
export const coverFolder = (project: Pick<StudioProjectRow, 'workspaceId' | 'id'>) =>
  `${projectFolder(project.workspaceId, project.id)}cover/`;

async function requireProject(deps: StudioDeps, caller: RequestCaller, projectId: string) {
  const project = await findProject(deps.db, caller.workspaceId, projectId);
  if (!project) throw notFound('The project');
  return project;
}

async function removeCoverFiles(deps: StudioDeps, project: StudioProjectRow, keep?: string) {
  for (const key of await deps.storage.list(coverFolder(project)))
    if (key !== keep) await deps.storage.delete(key);
}

async function answer(deps: StudioDeps, row: StudioProjectRow | undefined) {
  if (!row) throw notFound('The project');
  return {
    project: presentProject(
      row,
      (await listChapters(deps.db, row.id)).map((c) => c.id),
    ),
  };
}

/** `POST …/cover`: checks the image (nothing stored when refused), stores it and points the project at it. */
export async function setStudioCover(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  file: { bytes: Uint8Array } | undefined,
  publicUrl: string,
) {
  const project = await requireProject(deps, caller, projectId);
  const problem = coverProblem(file);
  if (problem || !file) throw problem;
  const type = coverTypeOf(file.bytes) as StudioCoverType;
  const key = `${coverFolder(project)}image.${EXTENSIONS[type]}`;
  await deps.storage.put(key, file.bytes);
  await removeCoverFiles(deps, project, key);
  const version = createHash('sha256').update(file.bytes).digest('hex').slice(0, 16);
  const url = `${publicUrl.replace(/\/$/, '')}/v1/studio/projects/${project.id}/cover?v=${version}`;
  return answer(deps, await updateProject(deps.db, project.id, { coverImageUrl: url }));
}

/** `DELETE …/cover`: the project has no cover any more. */
export async function deleteStudioCover(deps: StudioDeps, caller: RequestCaller, projectId: string) {
  const project = await requireProject(deps, caller, projectId);
  await removeCoverFiles(deps, project);
  return answer(deps, await updateProject(deps.db, project.id, { coverImageUrl: '' }));
}

/** A project's stored cover, or undefined when it has none. */
export async function readStudioCover(
  deps: Pick<StudioDeps, 'storage'>,
  project: Pick<StudioProjectRow, 'workspaceId' | 'id'>,
): Promise<{ bytes: Buffer; type: StudioCoverType } | undefined> {
  const [key] = await deps.storage.list(coverFolder(project));
  const bytes = key ? await deps.storage.get(key) : undefined;
  const type = bytes && coverTypeOf(bytes);
  return bytes && type ? { bytes, type } : undefined;
}

/** `GET …/cover`: the image and its type; 404 when the project has no cover. */
export async function getStudioCover(deps: StudioDeps, caller: RequestCaller, projectId: string) {
  const project = await requireProject(deps, caller, projectId);
  const cover = await readStudioCover(deps, project);
  if (!cover) throw notFound('The project’s cover image');
  return cover;
}

/**
 * Writes the project's cover into an export's scratch folder for ffmpeg (AudiobookMetadata `coverFile`:
 * the m4b's `covr` and each mp3's attached picture), or undefined when the project has none.
 */
export async function writeStudioCoverFile(
  deps: Pick<StudioDeps, 'storage'>,
  project: Pick<StudioProjectRow, 'workspaceId' | 'id'>,
  dir: string,
): Promise<string | undefined> {
  const cover = await readStudioCover(deps, project);
  if (!cover) return undefined;
  const file = join(dir, `cover.${EXTENSIONS[cover.type]}`);
  await writeFile(file, cover.bytes, { mode: 0o600 });
  return file;
}
