import fs from 'node:fs/promises';
import {
  addDubbingLanguageRoute,
  addDubbingProjectLanguageRoute,
  CreateDubbingFields,
  createDubbingRoute,
  createSegmentRoute,
  createSpeakerRoute,
  DUBBING_MAX_UPLOAD_BYTES,
  deleteDubbingProjectRoute,
  deleteDubbingRoute,
  deleteSegmentRoute,
  dubbingLanguagesRoute,
  dubbingSimilarVoicesRoute,
  dubSegmentsRoute,
  getDubbedAudioRoute,
  getDubbingFileRoute,
  getDubbingProjectLanguageRoute,
  getDubbingProjectRoute,
  getDubbingResourceRoute,
  getDubbingRoute,
  getDubbingTranscriptRoute,
  getDubbingTranscriptsRoute,
  listDubbingProjectLanguagesRoute,
  listDubbingProjectsRoute,
  listDubbingRoute,
  migrateSegmentsRoute,
  renderDubbingRoute,
  transcribeSegmentsRoute,
  translateSegmentsRoute,
  updateSegmentRoute,
  updateSpeakerRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { AppError, invalid } from '../../platform/errors';
import { acceptMultipart, readMultipartToDisk } from '../../platform/multipart';
import { registerRoute } from '../../platform/route';
import { makeScratchDir } from '../../platform/scratch-dirs';
import { attachmentDisposition, sendStoredFile } from '../../platform/storage/send-file';
import { dubbingDepsOf } from './dubbing.deps';
import {
  addLanguage,
  createSegment,
  createSpeaker,
  dubSegments,
  getResource,
  migrateSegments,
  patchSegment,
  patchSpeaker,
  removeSegment,
  speakerSimilarVoices,
  startRender,
  transcribeSegments,
  translateSegments,
} from './dubbing.editor';
import { dubbingLanguages } from './dubbing.languages';
import {
  addProjectLanguage,
  deleteProject,
  getProject,
  getProjectLanguage,
  listProjectLanguages,
  listProjects,
} from './dubbing.project';
import { createDub, deleteDub, dubOf, dubTranscript, getDub, listDubs } from './dubbing.service';
import { findRender, latestOutput, listSegmentLanguages } from './dubbing.store';

/** Aborted when the client goes away before its answer was sent. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client went away'));
  });
  return controller.signal;
}

const EXTENSIONS: Record<string, string> = {
  'video/mp4': 'mp4',
  'audio/mpeg': 'mp3',
  'audio/aac': 'aac',
  'audio/wav': 'wav',
  'application/zip': 'zip',
};

/** The public API's separate stems of the source, which Parla does not take (it has no use for them). */
const SEPARATE_TRACKS = ['foreground_audio_file', 'background_audio_file'];

/** `/v1/dubbing…` and `/v1/dubbing/resource/…` (the SDK's `dubbing` and `dubbing.resource`; issue 29). */
export async function dubbingRoutes(app: FastifyInstance, appDeps: AppDeps): Promise<void> {
  await acceptMultipart(app, DUBBING_MAX_UPLOAD_BYTES);
  const deps = dubbingDepsOf(appDeps);
  const guarded = { onRequest: appDeps.auth.requireAuth };

  registerRoute(
    app,
    createDubbingRoute,
    async ({ request, reply }) => {
      const dir = await makeScratchDir('dub-up-');
      try {
        const form = await readMultipartToDisk(request, 'file', CreateDubbingFields, dir, [
          'csv_file',
          ...SEPARATE_TRACKS,
        ]);
        const track = SEPARATE_TRACKS.find((name) => form.texts[name] !== undefined);
        if (track)
          throw invalid(
            track,
            'Parla dubs the mixed sound of the file: separate foreground and background files are not taken.',
          );
        return await createDub(
          deps,
          callerOf(request),
          { fields: form.fields, file: form.file, csv: form.texts.csv_file },
          dir,
          clientGone(reply),
        );
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
    guarded,
  );
  registerRoute(
    app,
    listDubbingRoute,
    async ({ request, query }) => listDubs(deps, callerOf(request), query),
    guarded,
  );
  registerRoute(app, dubbingLanguagesRoute, async () => dubbingLanguages(deps), guarded);
  registerRoute(
    app,
    getDubbingRoute,
    async ({ request, params }) => getDub(deps, callerOf(request), params.dubbing_id),
    guarded,
  );
  registerRoute(
    app,
    deleteDubbingRoute,
    async ({ request, params }) => deleteDub(deps, callerOf(request), params.dubbing_id),
    guarded,
  );
  registerRoute(
    app,
    getDubbedAudioRoute,
    async ({ request, reply, params }) => {
      const dub = await dubOf(deps, callerOf(request), params.dubbing_id);
      const language = params.language_code.toLowerCase();
      if (!dub.targetLanguages.includes(language))
        throw new AppError('resource_not_found', `This dub has no language "${params.language_code}".`);
      const output = await latestOutput(deps.db, dub.id, language);
      if (!output?.key)
        throw new AppError(
          'transcript_not_ready',
          dub.status === 'failed' ? 'The dub failed: it has no audio.' : 'The dub is not ready yet.',
        );
      const stat = await deps.storage.stat(output.key);
      if (!stat) throw new AppError('resource_not_found', 'The dubbed file is gone.');
      const contentType = output.contentType ?? 'application/octet-stream';
      reply.header(
        'content-disposition',
        attachmentDisposition(`${dub.name}-${language}.${EXTENSIONS[contentType] ?? 'bin'}`, 'inline'),
      );
      return sendStoredFile(request, reply, deps.storage, {
        key: output.key,
        size: stat.size,
        contentType,
        cacheControl: 'private, no-store',
      });
    },
    guarded,
  );
  registerRoute(
    app,
    getDubbingTranscriptRoute,
    async ({ request, reply, params, query }) => {
      const made = await dubTranscript(
        deps,
        callerOf(request),
        params.dubbing_id,
        params.language_code,
        query.format_type,
      );
      // The public API answers JSON: the subtitles as a JSON string, or the json transcript (the official
      // client parses either); `download` sends the file itself, for a browser's download link.
      if (query.download) {
        reply
          .header('content-type', made.contentType)
          .header(
            'content-disposition',
            attachmentDisposition(
              `${params.language_code}.${query.format_type === 'webvtt' ? 'vtt' : query.format_type}`,
            ),
          );
        return made.body;
      }
      return query.format_type === 'json' ? made.json : JSON.stringify(made.body);
    },
    guarded,
  );
  registerRoute(
    app,
    getDubbingTranscriptsRoute,
    async ({ request, params }) => {
      const made = await dubTranscript(
        deps,
        callerOf(request),
        params.dubbing_id,
        params.language_code,
        params.format_type,
      );
      return {
        transcript_format: params.format_type,
        ...(params.format_type === 'json' ? { json: made.json } : { [params.format_type]: made.body }),
      };
    },
    guarded,
  );

  // The editor's resource.
  registerRoute(
    app,
    getDubbingResourceRoute,
    async ({ request, params }) => getResource(deps, callerOf(request), params.dubbing_id),
    guarded,
  );
  registerRoute(
    app,
    transcribeSegmentsRoute,
    async ({ request, reply, params, body }) =>
      transcribeSegments(deps, callerOf(request), params.dubbing_id, body, clientGone(reply)),
    guarded,
  );
  registerRoute(
    app,
    translateSegmentsRoute,
    async ({ request, reply, params, body }) =>
      translateSegments(deps, callerOf(request), params.dubbing_id, body, clientGone(reply)),
    guarded,
  );
  registerRoute(
    app,
    dubSegmentsRoute,
    async ({ request, reply, params, body }) => {
      const { version } = await dubSegments(
        deps,
        callerOf(request),
        params.dubbing_id,
        body,
        clientGone(reply),
      );
      return { version };
    },
    guarded,
  );
  registerRoute(
    app,
    renderDubbingRoute,
    async ({ request, params, body }) =>
      startRender(deps, callerOf(request), params.dubbing_id, params.language.toLowerCase(), body),
    guarded,
  );
  registerRoute(
    app,
    addDubbingLanguageRoute,
    async ({ request, params, body }) =>
      addLanguage(deps, callerOf(request), params.dubbing_id, body.language),
    guarded,
  );
  registerRoute(
    app,
    migrateSegmentsRoute,
    async ({ request, params, body }) => migrateSegments(deps, callerOf(request), params.dubbing_id, body),
    guarded,
  );
  registerRoute(
    app,
    updateSegmentRoute,
    async ({ request, params, body }) =>
      patchSegment(
        deps,
        callerOf(request),
        params.dubbing_id,
        params.segment_id,
        params.language.toLowerCase(),
        body,
      ),
    guarded,
  );
  registerRoute(
    app,
    deleteSegmentRoute,
    async ({ request, params }) =>
      removeSegment(deps, callerOf(request), params.dubbing_id, params.segment_id),
    guarded,
  );
  registerRoute(
    app,
    createSpeakerRoute,
    async ({ request, params, body }) => createSpeaker(deps, callerOf(request), params.dubbing_id, body),
    guarded,
  );
  registerRoute(
    app,
    updateSpeakerRoute,
    async ({ request, params, body }) =>
      patchSpeaker(deps, callerOf(request), params.dubbing_id, params.speaker_id, body),
    guarded,
  );
  registerRoute(
    app,
    dubbingSimilarVoicesRoute,
    async ({ request, params }) =>
      speakerSimilarVoices(deps, callerOf(request), params.dubbing_id, params.speaker_id),
    guarded,
  );
  registerRoute(
    app,
    createSegmentRoute,
    async ({ request, params, body }) =>
      createSegment(deps, callerOf(request), params.dubbing_id, params.speaker_id, body),
    guarded,
  );
  registerRoute(
    app,
    getDubbingFileRoute,
    async ({ request, reply, params }) => {
      const dub = await dubOf(deps, callerOf(request), params.dubbing_id);
      const file = await fileOf(params.file_id);
      const stat = file && (await deps.storage.stat(file.key));
      if (!file || !stat) throw new AppError('resource_not_found', 'The file was not found.');
      return sendStoredFile(request, reply, deps.storage, {
        key: file.key,
        size: stat.size,
        contentType: file.contentType,
        cacheControl: 'private, no-store',
      });

      /** The stored file a media reference's id names: the source, a clip or a render of this dub. */
      async function fileOf(id: string): Promise<{ key: string; contentType: string } | undefined> {
        if (id === 'source')
          return {
            key: dub.input.key,
            contentType: dub.input.kind === 'video' ? 'video/x-matroska' : 'audio/x-matroska',
          };
        const clip = /^clip-([A-Za-z0-9_-]+)-([a-z-]+)$/.exec(id);
        if (clip) {
          const row = (await listSegmentLanguages(deps.db, dub.id)).find(
            (r) => r.segmentId === clip[1] && r.language === clip[2],
          );
          return row?.audioKey ? { key: row.audioKey, contentType: 'audio/wav' } : undefined;
        }
        const render = /^render-([A-Za-z0-9_-]+)$/.exec(id);
        if (render) {
          const row = await findRender(deps.db, dub.id, render[1] ?? '');
          return row?.key && row.status === 'complete'
            ? { key: row.key, contentType: row.contentType ?? 'application/octet-stream' }
            : undefined;
        }
        return undefined;
      }
    },
    guarded,
  );

  // The newer project calls, where they map (dubbing.project.ts).
  registerRoute(
    app,
    listDubbingProjectsRoute,
    async ({ request, query }) => listProjects(deps, callerOf(request), query),
    guarded,
  );
  registerRoute(
    app,
    getDubbingProjectRoute,
    async ({ request, params }) => getProject(deps, callerOf(request), params.project_id),
    guarded,
  );
  registerRoute(
    app,
    deleteDubbingProjectRoute,
    async ({ request, params }) => deleteProject(deps, callerOf(request), params.project_id),
    guarded,
  );
  registerRoute(
    app,
    listDubbingProjectLanguagesRoute,
    async ({ request, params, query }) =>
      listProjectLanguages(deps, callerOf(request), params.project_id, query),
    guarded,
  );
  registerRoute(
    app,
    getDubbingProjectLanguageRoute,
    async ({ request, params }) =>
      getProjectLanguage(deps, callerOf(request), params.project_id, params.language_id),
    guarded,
  );
  registerRoute(
    app,
    addDubbingProjectLanguageRoute,
    async ({ request, reply, params, body }) =>
      addProjectLanguage(deps, callerOf(request), params.project_id, body, clientGone(reply)),
    guarded,
  );
}
