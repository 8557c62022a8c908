import {
  AUDIO_NATIVE_MAX_EVENT_BYTES,
  CreateAudioNativeFields,
  createAudioNativeRoute,
  getAudioNativeAnalyticsRoute,
  getAudioNativePlayerRoute,
  getAudioNativeProjectRoute,
  getAudioNativeSettingsRoute,
  listAudioNativeProjectsRoute,
  STUDIO_MAX_DOCUMENT_BYTES,
  UpdateAudioNativeContentFields,
  updateAudioNativeContentFromUrlRoute,
  updateAudioNativeContentRoute,
  updateAudioNativeSettingsRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { AppError, notFound } from '../../platform/errors';
import { acceptMultipart, readMultipartWithLists } from '../../platform/multipart';
import { registerRoute } from '../../platform/route';
import { sendStoredFile } from '../../platform/storage/send-file';
import { audioNativeDepsOf } from './audio-native.deps';
import { embedScriptRoutes } from './audio-native.embed';
import {
  createAudioNative,
  type EmbedRequest,
  getAudioNativeAnalytics,
  getAudioNativeProject,
  getAudioNativeSettings,
  ingestEvent,
  listAudioNativeProjects,
  playerAudio,
  playerConfig,
  updateAudioNativeContent,
  updateAudioNativeFromUrl,
  updateAudioNativeSettings,
} from './audio-native.service';

/** Aborted when the client goes away before its answer was sent. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client went away'));
  });
  return controller.signal;
}

function documentTooLarge(error: unknown): unknown {
  if (error instanceof AppError && error.code === 'payload_too_large' && /uploaded file/.test(error.message))
    return new AppError(
      'payload_too_large',
      `The file is larger than ${STUDIO_MAX_DOCUMENT_BYTES / 1024 / 1024} MB, the most an article may be.`,
    );
  return error;
}

const embedRequestOf = (request: FastifyRequest): EmbedRequest => ({
  origin: typeof request.headers.origin === 'string' ? request.headers.origin : undefined,
  fetchSite:
    typeof request.headers['sec-fetch-site'] === 'string' ? request.headers['sec-fetch-site'] : undefined,
});

/** A path's project id for the two routes outside the contracts (NUL or junk: no such player, never a 500). */
function projectIdOf(raw: unknown): string {
  const id = String(raw);
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw notFound('The Audio Native player');
  return id;
}

/**
 * The headers that let an allowed page use an answer: its origin echoed (an origin was checked before),
 * and CORP cross-origin in place of helmet's same-origin, which would block a cross-origin <audio>.
 */
function embedHeaders(reply: FastifyReply, embed: EmbedRequest): void {
  reply.header('cross-origin-resource-policy', 'cross-origin').header('vary', 'Origin');
  if (embed.origin) reply.header('access-control-allow-origin', embed.origin);
}

/** `/v1/audio-native…` (the SDK's `audioNative`, and Parla's pages and public player; issue 30 item 4). */
export async function audioNativeRoutes(app: FastifyInstance, appDeps: AppDeps): Promise<void> {
  await acceptMultipart(app, STUDIO_MAX_DOCUMENT_BYTES, 1, { fields: 50, fieldSize: 64 * 1024 });
  const deps = audioNativeDepsOf(appDeps);
  const guarded = { onRequest: appDeps.auth.requireAuth };

  registerRoute(
    app,
    createAudioNativeRoute,
    async ({ request, reply }) => {
      const form = await readMultipartWithLists(request, 'file', CreateAudioNativeFields, [
        'pronunciation_dictionary_locators',
      ]).catch((error: unknown) => {
        throw documentTooLarge(error);
      });
      return createAudioNative(deps, callerOf(request), form.fields, form.file, clientGone(reply));
    },
    guarded,
  );
  registerRoute(
    app,
    getAudioNativeSettingsRoute,
    async ({ request, params }) => getAudioNativeSettings(deps, callerOf(request), params.project_id),
    guarded,
  );
  registerRoute(
    app,
    updateAudioNativeContentRoute,
    async ({ request, reply, params }) => {
      const form = await readMultipartWithLists(request, 'file', UpdateAudioNativeContentFields, []).catch(
        (error: unknown) => {
          throw documentTooLarge(error);
        },
      );
      return updateAudioNativeContent(
        deps,
        callerOf(request),
        params.project_id,
        form.fields,
        form.file,
        clientGone(reply),
      );
    },
    guarded,
  );
  registerRoute(
    app,
    updateAudioNativeContentFromUrlRoute,
    async ({ request, reply, body }) =>
      updateAudioNativeFromUrl(deps, callerOf(request), body, clientGone(reply)),
    guarded,
  );

  // ---- Parla's pages -------------------------------------------------------------------------------------
  registerRoute(
    app,
    listAudioNativeProjectsRoute,
    async ({ request }) => listAudioNativeProjects(deps, callerOf(request)),
    guarded,
  );
  registerRoute(
    app,
    getAudioNativeProjectRoute,
    async ({ request, params }) => getAudioNativeProject(deps, callerOf(request), params.project_id),
    guarded,
  );
  registerRoute(
    app,
    updateAudioNativeSettingsRoute,
    async ({ request, params, body }) =>
      updateAudioNativeSettings(deps, callerOf(request), params.project_id, body),
    guarded,
  );
  registerRoute(
    app,
    getAudioNativeAnalyticsRoute,
    async ({ request, params, query }) =>
      getAudioNativeAnalytics(deps, callerOf(request), params.project_id, query.days),
    guarded,
  );

  // ---- The embedded player (public: no key; its project's allowed origins only) ------------------------
  registerRoute(
    app,
    getAudioNativePlayerRoute,
    async ({ request, reply, params }) => {
      const embed = embedRequestOf(request);
      const config = await playerConfig(deps, params.project_id, embed);
      embedHeaders(reply, embed);
      reply.header('cache-control', 'no-cache');
      return config;
    },
    { config: { rateLimit: { max: 300, timeWindow: 60_000 } } },
  );
  // The audio (Range for seeking and resuming). Not a contract route: its body is the MP3's bytes.
  app.get<{ Params: { project_id: string } }>(
    '/v1/audio-native/:project_id/audio',
    { schema: { hide: true }, config: { rateLimit: { max: 600, timeWindow: 60_000 } } },
    async (request, reply) => {
      const embed = embedRequestOf(request);
      const file = await playerAudio(deps, projectIdOf(request.params.project_id), embed);
      embedHeaders(reply, embed);
      return sendStoredFile(request, reply, deps.storage, {
        ...file,
        contentType: 'audio/mpeg',
        // The address names its snapshot (?v=), so a cached copy is the right one for an hour.
        cacheControl: 'public, max-age=3600',
      });
    },
  );
  // The analytics beacons: text/plain (a CORS-safelisted type, so sendBeacon sends it without a preflight).
  app.post<{ Params: { project_id: string }; Body: string }>(
    '/v1/audio-native/:project_id/events',
    {
      schema: { hide: true },
      bodyLimit: AUDIO_NATIVE_MAX_EVENT_BYTES,
      config: { rateLimit: { max: 120, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const embed = embedRequestOf(request);
      if (typeof request.body !== 'string')
        throw new AppError('unsupported_media_type', 'An event is sent as text/plain JSON.');
      await ingestEvent(deps, projectIdOf(request.params.project_id), embed, request.body);
      embedHeaders(reply, embed);
      return reply.code(204).send();
    },
  );
  await embedScriptRoutes(app, appDeps);
}
