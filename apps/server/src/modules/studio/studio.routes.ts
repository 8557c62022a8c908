import type { Readable } from 'node:stream';
import {
  archiveStudioSnapshotRoute,
  CreateStudioProjectFields,
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
  getStudioSnapshotRoute,
  listStudioChapterSnapshotsRoute,
  listStudioChaptersRoute,
  listStudioProjectsRoute,
  listStudioSnapshotsRoute,
  STUDIO_MAX_DOCUMENT_BYTES,
  streamStudioChapterSnapshotRoute,
  streamStudioSnapshotRoute,
  studioChapterAcxRoute,
  studioDictionariesRoute,
  studioMutedTracksRoute,
  studioProgressRoute,
  UpdateStudioContentFields,
  updateStudioChapterRoute,
  updateStudioContentRoute,
  updateStudioProjectRoute,
  uploadStudioCoverRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { AppError } from '../../platform/errors';
import { acceptMultipart, readMultipartForm, readMultipartWithLists } from '../../platform/multipart';
import { registerRoute } from '../../platform/route';
import { deleteStudioCover, getStudioCover, setStudioCover } from './studio.cover';
import { studioDepsOf } from './studio.deps';
import { chapterAcxReport, exportChapter, exportProject, type StudioDownload } from './studio.exports';
import { progressStream } from './studio.progress';
import {
  convertStudioChapter,
  createProject,
  createStudioChapter,
  deleteStudioChapter,
  deleteStudioProject,
  getStudioChapter,
  getStudioProject,
  listStudioChapters,
  listStudioProjects,
  setStudioDictionaries,
  startConversion,
  updateStudioChapter,
  updateStudioContent,
  updateStudioProject,
} from './studio.service';
import {
  archiveSnapshot,
  getChapterSnapshot,
  getSnapshot,
  listChapterSnapshotsOf,
  listSnapshots,
  streamChapterSnapshot,
  streamSnapshot,
} from './studio.snapshots';

/** Aborted when the client goes away before its answer was sent. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client went away'));
  });
  return controller.signal;
}

/** The multipart fields that repeat (the SDK appends each item under the same name). */
const LIST_FIELDS = ['genres', 'pronunciation_dictionary_locators', 'voice_settings'];

/** A document over the limit is refused as it arrives, before it is read whole. */
/** A form's text fields together: `from_content_json` (at most 20 MB, the scope's field limit) and the rest. */
const STUDIO_MAX_FORM_TEXT_BYTES = 21 * 1024 * 1024;

function documentTooLarge(error: unknown): unknown {
  if (error instanceof AppError && error.code === 'payload_too_large' && /uploaded file/.test(error.message))
    return new AppError(
      'payload_too_large',
      `The document is larger than ${STUDIO_MAX_DOCUMENT_BYTES / 1024 / 1024} MB, the most a project is made from.`,
    );
  return error;
}

function sendStream(reply: FastifyReply, stream: Readable, contentType: string, fileName?: string) {
  reply.header('content-type', contentType).header('cache-control', 'private, no-store');
  if (fileName) reply.header('content-disposition', attachment(fileName));
  return reply.send(stream);
}

/** `attachment` with an ASCII name and the exact one as RFC 6266's filename* (a title may be any text). */
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

const sendDownload = (reply: FastifyReply, download: StudioDownload) =>
  sendStream(reply, download.stream, download.contentType, download.fileName);

/** `/v1/studio/projects…` (the SDK's `studio.projects`, its chapters and snapshots; issue 30 item 2). */
export async function studioRoutes(app: FastifyInstance, appDeps: AppDeps): Promise<void> {
  await acceptMultipart(app, STUDIO_MAX_DOCUMENT_BYTES, 1, { fields: 200, fieldSize: 20 * 1024 * 1024 });
  const deps = studioDepsOf(appDeps);
  const guarded = { onRequest: appDeps.auth.requireAuth };

  registerRoute(
    app,
    createStudioProjectRoute,
    async ({ request, reply }) => {
      const form = await readMultipartWithLists(
        request,
        'from_document',
        CreateStudioProjectFields,
        LIST_FIELDS,
        STUDIO_MAX_FORM_TEXT_BYTES,
      ).catch((error: unknown) => {
        throw documentTooLarge(error);
      });
      return createProject(
        deps,
        callerOf(request),
        { fields: form.fields, document: form.file },
        clientGone(reply),
      );
    },
    guarded,
  );
  registerRoute(
    app,
    listStudioProjectsRoute,
    async ({ request }) => listStudioProjects(deps, callerOf(request)),
    guarded,
  );
  registerRoute(
    app,
    getStudioProjectRoute,
    async ({ request, params }) => getStudioProject(deps, callerOf(request), params.project_id),
    guarded,
  );
  registerRoute(
    app,
    updateStudioProjectRoute,
    async ({ request, params, body }) =>
      updateStudioProject(deps, callerOf(request), params.project_id, body),
    guarded,
  );
  registerRoute(
    app,
    deleteStudioProjectRoute,
    async ({ request, params }) => deleteStudioProject(deps, callerOf(request), params.project_id),
    guarded,
  );
  registerRoute(
    app,
    convertStudioProjectRoute,
    async ({ request, params }) => startConversion(deps, callerOf(request), params.project_id, null),
    guarded,
  );
  registerRoute(
    app,
    studioMutedTracksRoute,
    async ({ request, params }) => {
      await getStudioProject(deps, callerOf(request), params.project_id);
      return { chapter_ids: [] };
    },
    guarded,
  );
  registerRoute(
    app,
    updateStudioContentRoute,
    async ({ request, reply, params }) => {
      const form = await readMultipartWithLists(
        request,
        'from_document',
        UpdateStudioContentFields,
        [],
        STUDIO_MAX_FORM_TEXT_BYTES,
      ).catch((error: unknown) => {
        throw documentTooLarge(error);
      });
      return updateStudioContent(
        deps,
        callerOf(request),
        params.project_id,
        { fields: form.fields, document: form.file },
        clientGone(reply),
      );
    },
    guarded,
  );

  // ---- The cover image (audiobook metadata; studio.cover.ts) ------------------------------------------------
  registerRoute(
    app,
    uploadStudioCoverRoute,
    async ({ request, params }) => {
      // The scope's file limit is the document's; the cover's own, smaller one is checked on its bytes.
      const form = await readMultipartForm(request, 'file', z.object({}).passthrough());
      return setStudioCover(deps, callerOf(request), params.project_id, form.file, appDeps.config.publicUrl);
    },
    guarded,
  );
  registerRoute(
    app,
    getStudioCoverRoute,
    async ({ request, reply, params }) => {
      const cover = await getStudioCover(deps, callerOf(request), params.project_id);
      return reply
        .header('content-type', cover.type)
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(cover.bytes);
    },
    guarded,
  );
  registerRoute(
    app,
    deleteStudioCoverRoute,
    async ({ request, params }) => deleteStudioCover(deps, callerOf(request), params.project_id),
    guarded,
  );
  registerRoute(
    app,
    studioDictionariesRoute,
    async ({ request, params, body }) =>
      setStudioDictionaries(deps, callerOf(request), params.project_id, body),
    guarded,
  );

  registerRoute(
    app,
    studioProgressRoute,
    async ({ request, reply, params }) => {
      const stream = await progressStream(deps, callerOf(request), params.project_id, clientGone(reply));
      reply.header('x-accel-buffering', 'no');
      return sendStream(reply, stream, 'text/event-stream; charset=utf-8');
    },
    guarded,
  );

  // ---- Snapshots -------------------------------------------------------------------------------------------
  registerRoute(
    app,
    listStudioSnapshotsRoute,
    async ({ request, params }) => listSnapshots(deps, callerOf(request), params.project_id),
    guarded,
  );
  registerRoute(
    app,
    getStudioSnapshotRoute,
    async ({ request, params }) =>
      getSnapshot(deps, callerOf(request), params.project_id, params.project_snapshot_id),
    guarded,
  );
  registerRoute(
    app,
    streamStudioSnapshotRoute,
    async ({ request, reply, params }) =>
      sendStream(
        reply,
        await streamSnapshot(deps, callerOf(request), params.project_id, params.project_snapshot_id),
        'audio/mpeg',
      ),
    guarded,
  );
  registerRoute(
    app,
    archiveStudioSnapshotRoute,
    async ({ request, reply, params }) =>
      sendStream(
        reply,
        await archiveSnapshot(deps, callerOf(request), params.project_id, params.project_snapshot_id),
        'application/zip',
        `${params.project_snapshot_id}.zip`,
      ),
    guarded,
  );

  // ---- Parla's audiobook downloads and ACX report ----------------------------------------------------------
  registerRoute(
    app,
    exportStudioProjectRoute,
    async ({ request, reply, params, query }) =>
      sendDownload(reply, await exportProject(deps, callerOf(request), params.project_id, query.format)),
    guarded,
  );
  registerRoute(
    app,
    exportStudioChapterRoute,
    async ({ request, reply, params, query }) =>
      sendDownload(
        reply,
        await exportChapter(deps, callerOf(request), params.project_id, params.chapter_id, query.format),
      ),
    guarded,
  );
  registerRoute(
    app,
    studioChapterAcxRoute,
    async ({ request, params }) =>
      chapterAcxReport(deps, callerOf(request), params.project_id, params.chapter_id),
    guarded,
  );

  // ---- Chapters --------------------------------------------------------------------------------------------
  registerRoute(
    app,
    listStudioChaptersRoute,
    async ({ request, params }) => listStudioChapters(deps, callerOf(request), params.project_id),
    guarded,
  );
  registerRoute(
    app,
    createStudioChapterRoute,
    async ({ request, reply, params, body }) =>
      createStudioChapter(deps, callerOf(request), params.project_id, body, clientGone(reply)),
    guarded,
  );
  registerRoute(
    app,
    getStudioChapterRoute,
    async ({ request, params }) =>
      getStudioChapter(deps, callerOf(request), params.project_id, params.chapter_id),
    guarded,
  );
  registerRoute(
    app,
    updateStudioChapterRoute,
    async ({ request, params, body }) =>
      updateStudioChapter(deps, callerOf(request), params.project_id, params.chapter_id, body),
    guarded,
  );
  registerRoute(
    app,
    deleteStudioChapterRoute,
    async ({ request, params }) =>
      deleteStudioChapter(deps, callerOf(request), params.project_id, params.chapter_id),
    guarded,
  );
  registerRoute(
    app,
    convertStudioChapterRoute,
    async ({ request, params }) =>
      convertStudioChapter(deps, callerOf(request), params.project_id, params.chapter_id),
    guarded,
  );
  registerRoute(
    app,
    listStudioChapterSnapshotsRoute,
    async ({ request, params }) =>
      listChapterSnapshotsOf(deps, callerOf(request), params.project_id, params.chapter_id),
    guarded,
  );
  registerRoute(
    app,
    getStudioChapterSnapshotRoute,
    async ({ request, params }) =>
      getChapterSnapshot(
        deps,
        callerOf(request),
        params.project_id,
        params.chapter_id,
        params.chapter_snapshot_id,
      ),
    guarded,
  );
  registerRoute(
    app,
    streamStudioChapterSnapshotRoute,
    async ({ request, reply, params }) =>
      sendStream(
        reply,
        await streamChapterSnapshot(
          deps,
          callerOf(request),
          params.project_id,
          params.chapter_id,
          params.chapter_snapshot_id,
        ),
        'audio/mpeg',
      ),
    guarded,
  );
}
