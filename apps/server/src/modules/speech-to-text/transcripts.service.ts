import {
  type ListTranscriptsQuery,
  type ListTranscriptsResponse,
  type ResourceRole,
  sttMessages,
  type TranscriptDetails,
  type TranscriptExportFormat,
  type UpdateTranscriptRequest,
  type WireTranscript,
} from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError, notFound } from '../../platform/errors';
import type { Storage } from '../../platform/storage/storage';
import { callerRoleOn, forgetShares, type ResourceCaller, roleProblem } from '../workspaces';
import { toTranscriptDetails, toTranscriptListItem, toWireTranscript } from './speech-to-text.present';
import {
  creatorNameOf,
  deleteTranscriptRow,
  getTranscript,
  listTranscriptPage,
  updateTranscriptRow,
} from './speech-to-text.store';
import type { TranscriptRow } from './speech-to-text.tables';
import { type ExportFormat, formatTranscript } from './transcript-formats';
import { singleTranscript } from './transcript-words';

/*
 * The workspace's transcripts (issue 19 items 1, 4, 6): read, list, rename, export and delete, shared
 * between members like voices and history items (the creator is admin; others hold what was shared).
 */

const transcriptNotFound = (id: string) => notFound(`Transcript ${id}`);

/** Why a change found no transcript: the caller cannot see it (404), or holds too small a role (403). */
async function missingOrForbidden(db: Db, caller: ResourceCaller, id: string, needed: ResourceRole) {
  const row = await getTranscript(db, caller, id);
  if (!row) return transcriptNotFound(id);
  const held = await callerRoleOn(db, caller, 'transcript', {
    id: row.id,
    workspaceId: row.workspaceId,
    creatorId: row.userId,
  });
  return roleProblem('transcript', held, needed) ?? transcriptNotFound(id);
}

/** A transcript the caller may see, or its 404. */
export async function findTranscript(db: Db, caller: ResourceCaller, id: string): Promise<TranscriptRow> {
  const row = await getTranscript(db, caller, id);
  if (!row) throw transcriptNotFound(id);
  return row;
}

/** A completed transcript's row, or 409 while it is being made and 422 with its reason once it failed. */
async function completedTranscript(
  db: Db,
  caller: ResourceCaller,
  id: string,
): Promise<TranscriptRow & { transcript: WireTranscript }> {
  const row = await findTranscript(db, caller, id);
  if (row.status === 'processing') throw new AppError('transcript_not_ready', sttMessages.notReady);
  if (row.status === 'failed' || !row.transcript)
    throw new AppError('transcript_failed', row.error ?? 'The transcription failed.');
  return { ...row, transcript: row.transcript };
}

/** `GET /v1/speech-to-text/transcripts/{id}`: the public API's transcript. */
export async function readTranscript(db: Db, caller: ResourceCaller, id: string): Promise<WireTranscript> {
  return toWireTranscript(await completedTranscript(db, caller, id));
}

/** The page's list: newest first, a keyset cursor (`<unix ms>_<id>`), search on names. */
export async function listTranscripts(
  db: Db,
  caller: ResourceCaller,
  query: ListTranscriptsQuery,
): Promise<ListTranscriptsResponse> {
  let after: { createdAt: Date; id: string } | undefined;
  if (query.cursor) {
    const match = /^(\d{1,15})_([0-9A-Za-z]{1,40})$/.exec(query.cursor);
    if (!match) throw new AppError('invalid_request', 'The cursor is not one this list gave.');
    after = { createdAt: new Date(Number(match[1])), id: match[2] as string };
  }
  const { rows, hasMore } = await listTranscriptPage(db, caller, {
    pageSize: query.page_size,
    after,
    search: query.search?.trim() || undefined,
  });
  const last = rows.at(-1);
  return {
    transcripts: rows.map((r) => toTranscriptListItem(r, r.creatorName)),
    has_more: hasMore,
    next_cursor: hasMore && last ? `${last.createdAt.getTime()}_${last.id}` : null,
  };
}

export async function transcriptDetails(
  db: Db,
  caller: ResourceCaller,
  id: string,
): Promise<TranscriptDetails> {
  const row = await findTranscript(db, caller, id);
  return toTranscriptDetails(row, await creatorNameOf(db, row.userId));
}

/** Renames a transcript or its speakers (editor role); an empty speaker name removes the name. */
export async function updateTranscript(
  db: Db,
  caller: ResourceCaller,
  id: string,
  body: UpdateTranscriptRequest,
): Promise<TranscriptDetails> {
  const current = await findTranscript(db, caller, id);
  const changes: Partial<Pick<TranscriptRow, 'name' | 'speakerNames'>> = {};
  if (body.name !== undefined) changes.name = body.name;
  if (body.speaker_names !== undefined) {
    const names = { ...current.speakerNames };
    for (const [speaker, name] of Object.entries(body.speaker_names)) {
      if (name) names[speaker] = name;
      else delete names[speaker];
    }
    changes.speakerNames = names;
  }
  const row =
    Object.keys(changes).length === 0 ? current : await updateTranscriptRow(db, caller, id, changes);
  if (!row) throw await missingOrForbidden(db, caller, id, 'editor');
  return toTranscriptDetails(row, await creatorNameOf(db, row.userId));
}

/** Deletes a transcript and its files (admin role: its creator, or what was shared as admin). */
export async function deleteTranscript(
  deps: { db: Db; storage: Storage },
  caller: ResourceCaller,
  id: string,
): Promise<void> {
  const row = await deleteTranscriptRow(deps.db, caller, id);
  if (!row) throw await missingOrForbidden(deps.db, caller, id, 'admin');
  await forgetShares(deps.db, 'transcript', row.id);
  for (const key of [row.audioKey, row.sourceKey])
    if (key) await deps.storage.delete(key).catch(() => undefined);
}

/** A transcript's playable audio: its key and size (the route streams it with Range). */
export async function transcriptAudio(
  deps: { db: Db; storage: Storage },
  caller: ResourceCaller,
  id: string,
): Promise<{ key: string; size: number; name: string }> {
  const row = await findTranscript(deps.db, caller, id);
  const stat = row.audioKey ? await deps.storage.stat(row.audioKey) : undefined;
  if (!row.audioKey || !stat)
    throw new AppError(
      row.status === 'processing' ? 'transcript_not_ready' : 'resource_not_found',
      row.status === 'processing' ? sttMessages.notReady : `The audio of transcript ${id} was not found.`,
    );
  return { key: row.audioKey, size: stat.size, name: row.name };
}

const EXPORT_FORMATS: Record<TranscriptExportFormat, ExportFormat> = {
  txt: 'txt',
  srt: 'srt',
  vtt: 'webvtt',
  docx: 'docx',
  pdf: 'pdf',
  json: 'json',
  html: 'html',
  segmented_json: 'segmented_json',
};

/** A file name from a transcript's name: its letters, digits and a few marks; never empty. */
export function exportFileName(name: string, extension: string): string {
  const base = name
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[^\p{L}\p{N} _.-]+/gu, '_')
    .trim()
    .slice(0, 100);
  return `${base || 'transcript'}.${extension}`;
}

/** A completed transcript as a file, with the speakers' given names. */
export async function exportTranscript(
  db: Db,
  caller: ResourceCaller,
  id: string,
  query: { format: TranscriptExportFormat; include_speakers: boolean; include_timestamps: boolean },
): Promise<{ body: Buffer; contentType: string; fileName: string }> {
  const row = await completedTranscript(db, caller, id);
  const made = formatTranscript(
    singleTranscript(toWireTranscript(row)),
    {
      format: EXPORT_FORMATS[query.format],
      include_speakers: query.include_speakers,
      include_timestamps: query.include_timestamps,
    },
    row.speakerNames,
  );
  return {
    body: Buffer.from(made.content, made.is_base64_encoded ? 'base64' : 'utf8'),
    contentType: made.content_type,
    fileName: exportFileName(row.name, made.file_extension),
  };
}
