import {
  archiveStudioSnapshotRoute,
  buildPath,
  convertStudioChapterRoute,
  convertStudioProjectRoute,
  createStudioChapterRoute,
  createStudioProjectRoute,
  deleteStudioChapterRoute,
  deleteStudioCoverRoute,
  deleteStudioProjectRoute,
  exportStudioChapterRoute,
  exportStudioProjectRoute,
  getStudioChapterRoute,
  getStudioChapterSnapshotRoute,
  getStudioCoverRoute,
  getStudioProjectRoute,
  listStudioChapterSnapshotsRoute,
  listStudioProjectsRoute,
  listStudioSnapshotsRoute,
  type StudioBlockInput,
  type StudioBookExportFormat,
  type StudioChapterExportFormat,
  type StudioProject,
  type StudioProjectExtended,
  streamStudioChapterSnapshotRoute,
  studioChapterAcxRoute,
  studioDictionariesRoute,
  type UpdateStudioProjectBody,
  updateStudioChapterRoute,
  updateStudioProjectRoute,
  uploadStudioCoverRoute,
} from '@parla/contracts';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, apiRequest } from '../../../lib/api-client';
import { apiUpload } from '../../../lib/api-upload';
import { readContentDispositionFileName } from '../../../lib/content-disposition';
import { saveBlob } from '../../../lib/save-file';
import { isBusy, safeFileName } from '../studio-rules';

/** Under the workspace's key: switching workspaces or signing out clears them. */
export const studioQueryKeys = {
  all: ['workspace', 'studio'] as const,
  list: ['workspace', 'studio', 'list'] as const,
  project: (id: string) => ['workspace', 'studio', 'project', id] as const,
  chapter: (projectId: string, chapterId: string) =>
    ['workspace', 'studio', 'project', projectId, 'chapter', chapterId] as const,
  chapterSnapshots: (projectId: string, chapterId: string) =>
    ['workspace', 'studio', 'project', projectId, 'chapter', chapterId, 'snapshots'] as const,
  projectSnapshots: (projectId: string) =>
    ['workspace', 'studio', 'project', projectId, 'snapshots'] as const,
  acx: (projectId: string, chapterId: string, snapshotId: string | null) =>
    ['workspace', 'studio', 'project', projectId, 'chapter', chapterId, 'acx', snapshotId] as const,
};

/** How often the list looks again while a project is being imported or converted. */
export const STUDIO_POLL_MS = 2_000;

// ---- Projects --------------------------------------------------------------------------------------------

export function useStudioProjects() {
  return useQuery({
    queryKey: studioQueryKeys.list,
    queryFn: ({ signal }) => apiRequest(listStudioProjectsRoute, { signal }),
    refetchInterval: (query) => (query.state.data?.projects.some(isBusy) ? STUDIO_POLL_MS : false),
  });
}

export function studioProjectQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: studioQueryKeys.project(projectId),
    queryFn: ({ signal }) => apiRequest(getStudioProjectRoute, { params: { project_id: projectId }, signal }),
    // While a document is still being imported the chapters are not there yet; a queued conversion has
    // no progress events until it starts.
    refetchInterval: (query) =>
      query.state.data?.state === 'creating' || query.state.data?.state === 'in_queue'
        ? STUDIO_POLL_MS
        : false,
  });
}

export function useStudioProject(projectId: string) {
  return useQuery(studioProjectQueryOptions(projectId));
}

export interface NewProjectInput {
  name: string;
  source: { kind: 'empty' } | { kind: 'document'; file: File } | { kind: 'url'; url: string };
  titleVoiceId: string;
  paragraphVoiceId: string;
  modelId: string;
  qualityPreset: string;
  /** Audiobook metadata and normalisation (the API sets these only when a project is made). */
  details?: StudioProjectDetails;
  onProgress?: (share: number) => void;
}

export interface StudioProjectDetails {
  title: string;
  author: string;
  isbn: string;
  description: string;
  /** Comma-separated as typed. */
  genres: string;
  language: string;
  targetAudience: string;
  matureContent: boolean;
  acxVolumeNormalization: boolean;
  volumeNormalization: boolean;
}

/** The multipart form of `POST /v1/studio/projects`: the fields first, the document last. */
export function buildProjectForm(input: NewProjectInput): FormData {
  const form = new FormData();
  form.append('name', input.name.trim());
  form.append('default_title_voice_id', input.titleVoiceId);
  form.append('default_paragraph_voice_id', input.paragraphVoiceId);
  form.append('default_model_id', input.modelId);
  form.append('quality_preset', input.qualityPreset);
  const details = input.details;
  if (details) {
    const text: [string, string][] = [
      ['title', details.title],
      ['author', details.author],
      ['isbn_number', details.isbn],
      ['description', details.description],
      ['language', details.language],
      ['target_audience', details.targetAudience],
    ];
    for (const [key, value] of text) if (value.trim()) form.append(key, value.trim());
    for (const genre of details.genres.split(',')) if (genre.trim()) form.append('genres', genre.trim());
    form.append('mature_content', String(details.matureContent));
    form.append('acx_volume_normalization', String(details.acxVolumeNormalization));
    form.append('volume_normalization', String(details.volumeNormalization));
  }
  if (input.source.kind === 'url') form.append('from_url', input.source.url.trim());
  if (input.source.kind === 'document')
    form.append('from_document', input.source.file, input.source.file.name);
  return form;
}

export function useCreateStudioProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewProjectInput) =>
      apiUpload(createStudioProjectRoute, {
        body: buildProjectForm(input),
        onProgress: (sent, total) => input.onProgress?.(total > 0 ? sent / total : 0),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studioQueryKeys.list }),
  });
}

export function useDeleteStudioProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (projectId: string) =>
      apiRequest(deleteStudioProjectRoute, { params: { project_id: projectId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studioQueryKeys.list }),
  });
}

function refreshProject(queryClient: QueryClient, projectId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: studioQueryKeys.project(projectId) }),
    queryClient.invalidateQueries({ queryKey: studioQueryKeys.list }),
  ]);
}

export function useUpdateStudioProject(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateStudioProjectBody) =>
      apiRequest(updateStudioProjectRoute, { params: { project_id: projectId }, body }),
    onSuccess: () => refreshProject(queryClient, projectId),
  });
}

/** `POST …/cover` (multipart `file`): the project's cover image; the server checks its kind and size. */
export function useUploadStudioCover(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return apiRequest(uploadStudioCoverRoute, { params: { project_id: projectId }, body: form });
    },
    onSuccess: () => refreshProject(queryClient, projectId),
  });
}

export function useDeleteStudioCover(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(deleteStudioCoverRoute, { params: { project_id: projectId } }),
    onSuccess: () => refreshProject(queryClient, projectId),
  });
}

/**
 * A project's cover image as a blob (`GET …/cover` needs the caller's credentials, so an <img> cannot load
 * the URL itself); keyed by `cover_image_url`, whose version changes with each new cover. Off without one.
 */
export function useStudioCover(project: Pick<StudioProject, 'project_id' | 'cover_image_url'>) {
  return useQuery({
    queryKey: ['studio', 'cover', project.project_id, project.cover_image_url] as const,
    queryFn: async ({ signal }) =>
      (
        await apiFetch(getStudioCoverRoute, { params: { project_id: project.project_id }, signal }, 'image/*')
      ).blob(),
    enabled: project.cover_image_url !== '',
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useSetStudioDictionaries(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (locators: { pronunciation_dictionary_id: string; version_id: string | null }[]) =>
      apiRequest(studioDictionariesRoute, {
        params: { project_id: projectId },
        body: {
          pronunciation_dictionary_locators: locators.map((l) => ({
            pronunciation_dictionary_id: l.pronunciation_dictionary_id,
            ...(l.version_id ? { version_id: l.version_id } : {}),
          })),
        },
      }),
    onSuccess: () => refreshProject(queryClient, projectId),
  });
}

export function useConvertStudioProject(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(convertStudioProjectRoute, { params: { project_id: projectId } }),
    onSuccess: () => refreshProject(queryClient, projectId),
  });
}

// ---- Chapters --------------------------------------------------------------------------------------------

export function useStudioChapter(projectId: string, chapterId: string | null) {
  return useQuery({
    queryKey: studioQueryKeys.chapter(projectId, chapterId ?? ''),
    queryFn: ({ signal }) =>
      apiRequest(getStudioChapterRoute, {
        params: { project_id: projectId, chapter_id: chapterId ?? '' },
        signal,
      }),
    enabled: chapterId !== null,
  });
}

export function useCreateStudioChapter(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      apiRequest(createStudioChapterRoute, { params: { project_id: projectId }, body: { name } }),
    onSuccess: () => refreshProject(queryClient, projectId),
  });
}

export function useUpdateStudioChapter(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { chapterId: string; name?: string; blocks?: StudioBlockInput[] }) =>
      apiRequest(updateStudioChapterRoute, {
        params: { project_id: projectId, chapter_id: input.chapterId },
        body: {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.blocks !== undefined ? { content: { blocks: input.blocks } } : {}),
        },
      }),
    onSuccess: (answer, input) => {
      queryClient.setQueryData(studioQueryKeys.chapter(projectId, input.chapterId), answer.chapter);
      return queryClient.invalidateQueries({ queryKey: studioQueryKeys.project(projectId), exact: true });
    },
  });
}

export function useDeleteStudioChapter(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (chapterId: string) =>
      apiRequest(deleteStudioChapterRoute, { params: { project_id: projectId, chapter_id: chapterId } }),
    onSuccess: () => refreshProject(queryClient, projectId),
  });
}

export function useConvertStudioChapter(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (chapterId: string) =>
      apiRequest(convertStudioChapterRoute, { params: { project_id: projectId, chapter_id: chapterId } }),
    onSuccess: () => refreshProject(queryClient, projectId),
  });
}

// ---- Snapshots -------------------------------------------------------------------------------------------

export function useChapterSnapshots(projectId: string, chapterId: string | null) {
  return useQuery({
    queryKey: studioQueryKeys.chapterSnapshots(projectId, chapterId ?? ''),
    queryFn: ({ signal }) =>
      apiRequest(listStudioChapterSnapshotsRoute, {
        params: { project_id: projectId, chapter_id: chapterId ?? '' },
        signal,
      }),
    enabled: chapterId !== null,
  });
}

export function useProjectSnapshots(projectId: string) {
  return useQuery({
    queryKey: studioQueryKeys.projectSnapshots(projectId),
    queryFn: ({ signal }) =>
      apiRequest(listStudioSnapshotsRoute, { params: { project_id: projectId }, signal }),
  });
}

export function getChapterSnapshot(projectId: string, chapterId: string, snapshotId: string) {
  return apiRequest(getStudioChapterSnapshotRoute, {
    params: { project_id: projectId, chapter_id: chapterId, chapter_snapshot_id: snapshotId },
  });
}

/** A chapter snapshot's audio (`POST …/stream`), whole, as a blob the player can seek in. */
export async function fetchChapterSnapshotAudio(
  projectId: string,
  chapterId: string,
  snapshotId: string,
): Promise<Blob> {
  const response = await apiFetch(
    streamStudioChapterSnapshotRoute,
    { params: { project_id: projectId, chapter_id: chapterId, chapter_snapshot_id: snapshotId }, body: {} },
    'audio/mpeg',
  );
  return response.blob();
}

/** A project snapshot as a zip of its chapters (`POST …/archive`). */
export async function downloadProjectSnapshotArchive(
  project: Pick<StudioProject, 'project_id' | 'name'>,
  snapshotId: string,
) {
  const response = await apiFetch(archiveStudioSnapshotRoute, {
    params: { project_id: project.project_id, project_snapshot_id: snapshotId },
  });
  const fileName =
    readContentDispositionFileName(response.headers.get('content-disposition')) ??
    `${safeFileName(project.name)}.zip`;
  saveBlob(await response.blob(), fileName);
  return fileName;
}

export async function downloadChapterSnapshot(
  projectId: string,
  chapter: { chapter_id: string; name: string },
  snapshotId: string,
) {
  const blob = await fetchChapterSnapshotAudio(projectId, chapter.chapter_id, snapshotId);
  const fileName = `${safeFileName(chapter.name, 'chapter')}.mp3`;
  saveBlob(blob, fileName);
  return fileName;
}

// ---- Exports and the ACX check (Parla's own routes, issue 30 item 2) --------------------------------------

export {
  STUDIO_BOOK_EXPORT_FORMATS as STUDIO_PROJECT_EXPORT_FORMATS,
  STUDIO_CHAPTER_EXPORT_FORMATS,
  type StudioBookExportFormat as StudioProjectExportFormat,
  type StudioChapterExportFormat,
} from '@parla/contracts';

const EXTENSION: Record<StudioBookExportFormat, string> = {
  m4b: 'm4b',
  mp3: 'mp3',
  wav: 'wav',
  zip: 'zip',
};

/** `GET …/export?format=`: the whole book (or one chapter) saved under the server's file name. */
export async function exportStudio(input: {
  project: Pick<StudioProjectExtended, 'project_id' | 'name'>;
  chapter?: { chapter_id: string; name: string };
  format: StudioBookExportFormat;
}): Promise<string> {
  const response = input.chapter
    ? await apiFetch(exportStudioChapterRoute, {
        params: { project_id: input.project.project_id, chapter_id: input.chapter.chapter_id },
        query: { format: input.format as StudioChapterExportFormat },
      })
    : await apiFetch(exportStudioProjectRoute, {
        params: { project_id: input.project.project_id },
        query: { format: input.format },
      });
  const base = safeFileName(input.chapter?.name ?? input.project.name);
  const fileName =
    readContentDispositionFileName(response.headers.get('content-disposition')) ??
    `${base}.${EXTENSION[input.format]}`;
  saveBlob(await response.blob(), fileName);
  return fileName;
}

export function useExportStudio() {
  return useMutation({ mutationFn: exportStudio });
}

export function useChapterAcx(projectId: string, chapterId: string | null, snapshotId: string | null) {
  return useQuery({
    queryKey: studioQueryKeys.acx(projectId, chapterId ?? '', snapshotId),
    queryFn: ({ signal }) =>
      apiRequest(studioChapterAcxRoute, {
        params: { project_id: projectId, chapter_id: chapterId ?? '' },
        signal,
      }),
    enabled: chapterId !== null && snapshotId !== null,
    retry: false,
  });
}

/** The progress route's path (read with fetch: an EventSource cannot send the bearer token). */
export function studioProgressPath(projectId: string): string {
  return buildPath('/v1/studio/projects/:project_id/progress', { project_id: projectId });
}
