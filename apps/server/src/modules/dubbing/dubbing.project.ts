import type { DubbingProject, DubbingProjectLanguage } from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import { AppError } from '../../platform/errors';
import type { DubbingDeps } from './dubbing.deps';
import { addLanguage } from './dubbing.editor';
import { DUBBING_MODEL_ID, translateMissing } from './dubbing.pipeline';
import { fileUrl } from './dubbing.present';
import { deleteDub, dubOf, listDubs } from './dubbing.service';
import { findDub, latestOutput, listSegmentLanguages, updateSegmentLanguage } from './dubbing.store';
import type { DubRow } from './dubbing.tables';

/*
 * The newer `dubbing.project` calls, where they map onto a dub (issue 29 item 1): a project is a dub (its id
 * the dubbing id), a project language is one of its target languages (its id the language code). Reading,
 * deleting and adding a language map; creating a project and its transcript calls do not (a dub is created
 * with `POST /v1/dubbing`, its segments edited through the resource calls).
 */

function projectStatus(dub: DubRow): DubbingProject['status'] {
  if (dub.status === 'dubbed') return 'ready';
  if (dub.status === 'failed') return 'failed';
  if (dub.stage === 'queued') return 'queued';
  return dub.stage === 'preparing' ? 'preparing' : 'processing';
}

export function toProject(dub: DubRow): DubbingProject {
  return {
    project_id: dub.id,
    status: projectStatus(dub),
    reference: dub.name,
    ...(dub.sourceLanguage ? { source_language: dub.sourceLanguage } : {}),
    model_id: DUBBING_MODEL_ID,
    media: {
      ...(dub.input.fileName ? { filename: dub.input.fileName } : {}),
      duration_s: Math.round(dub.input.durationSec * 1000) / 1000,
      has_video: dub.input.kind === 'video',
      mime_type: dub.input.contentType,
    },
    language_ids: dub.targetLanguages,
    webhook_ids: [],
    revision: dub.version,
    ...(dub.error ? { error: { message_type: 'error' as const, error: dub.error } } : {}),
    created_at: dub.createdAt.toISOString(),
    updated_at: (dub.completedAt ?? dub.createdAt).toISOString(),
  };
}

async function toLanguage(deps: DubbingDeps, dub: DubRow, language: string): Promise<DubbingProjectLanguage> {
  const rows = (await listSegmentLanguages(deps.db, dub.id)).filter((r) => r.language === language);
  const output = await latestOutput(deps.db, dub.id, language);
  const status: DubbingProjectLanguage['status'] =
    dub.status === 'failed'
      ? 'failed'
      : dub.status === 'dubbing'
        ? dub.stage === 'queued'
          ? 'queued'
          : 'processing'
        : rows.some((r) => r.audioStale || r.audioKey === null || r.text === null) || !output
          ? 'stale'
          : 'completed';
  return {
    language_id: language,
    project_id: dub.id,
    target_language: language,
    status,
    model_id: DUBBING_MODEL_ID,
    ...(output?.key
      ? {
          outputs: {
            lossless_audio: fileUrl(deps.publicUrl, dub.id, `render-${output.id}`),
            subtitles: `${deps.publicUrl}/v1/dubbing/${dub.id}/transcript/${language}?format_type=srt&download=true`,
          },
        }
      : {}),
    revision: dub.version,
    ...(output ? { output_revision: output.version } : {}),
    ...(dub.error ? { error: { message_type: 'error' as const, error: dub.error } } : {}),
    created_at: dub.createdAt.toISOString(),
    updated_at: (output?.createdAt ?? dub.completedAt ?? dub.createdAt).toISOString(),
  };
}

const STATUS_OF: Record<DubbingProject['status'], 'dubbing' | 'dubbed' | 'failed'> = {
  queued: 'dubbing',
  preparing: 'dubbing',
  processing: 'dubbing',
  ready: 'dubbed',
  failed: 'failed',
};

export async function listProjects(
  deps: DubbingDeps,
  caller: RequestCaller,
  query: {
    cursor?: string | undefined;
    page_size: number;
    status?: DubbingProject['status'] | undefined;
    sort_direction: 'asc' | 'desc';
  },
) {
  const page = await listDubs(deps, caller, {
    cursor: query.cursor,
    page_size: query.page_size,
    dubbing_status: query.status ? STATUS_OF[query.status] : undefined,
    filter_by_creator: 'all',
    order_by: 'created_at',
    order_direction: query.sort_direction === 'asc' ? 'ASCENDING' : 'DESCENDING',
  });
  const rows = await Promise.all(page.dubs.map((d) => findDub(deps.db, caller.workspaceId, d.dubbing_id)));
  return {
    projects: rows
      .filter((r): r is DubRow => r !== undefined)
      .map(toProject)
      .filter((p) => !query.status || p.status === query.status),
    ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}),
  };
}

export async function getProject(deps: DubbingDeps, caller: RequestCaller, id: string) {
  return toProject(await dubOf(deps, caller, id));
}

export async function deleteProject(deps: DubbingDeps, caller: RequestCaller, id: string) {
  await deleteDub(deps, caller, id);
  return {};
}

export async function listProjectLanguages(
  deps: DubbingDeps,
  caller: RequestCaller,
  id: string,
  query: { status?: DubbingProjectLanguage['status'] | undefined },
) {
  const dub = await dubOf(deps, caller, id);
  const languages = await Promise.all(dub.targetLanguages.map((l) => toLanguage(deps, dub, l)));
  return { languages: languages.filter((l) => !query.status || l.status === query.status) };
}

export async function getProjectLanguage(
  deps: DubbingDeps,
  caller: RequestCaller,
  id: string,
  language: string,
) {
  const dub = await dubOf(deps, caller, id);
  if (!dub.targetLanguages.includes(language.toLowerCase()))
    throw new AppError('resource_not_found', `The dub has no language "${language}".`);
  return toLanguage(deps, dub, language.toLowerCase());
}

/** Adds a language (charged as a dub into it) and translates it now, or takes the translations given by segment id. */
export async function addProjectLanguage(
  deps: DubbingDeps,
  caller: RequestCaller,
  id: string,
  body: { target_language: string; translations?: Record<string, string> | null | undefined },
  signal: AbortSignal,
) {
  const language = body.target_language;
  await addLanguage(deps, caller, id, language);
  for (const [segmentId, text] of Object.entries(body.translations ?? {}))
    await updateSegmentLanguage(deps.db, segmentId, language, { text, audioStale: true });
  const dub = await dubOf(deps, caller, id);
  await translateMissing(deps, dub, signal, { languages: [language] });
  return toLanguage(deps, dub, language);
}
