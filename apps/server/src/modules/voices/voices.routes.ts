import {
  AddVoiceFields,
  addSharedVoiceRoute,
  addVoiceRoute,
  addVoiceToCollectionRoute,
  createCollectionRoute,
  deleteCollectionRoute,
  deleteVoiceRoute,
  deleteVoiceSampleRoute,
  EditVoiceFields,
  editVoiceRoute,
  editVoiceSettingsRoute,
  findPremadeVoice,
  getCollectionRoute,
  getDefaultVoiceSettingsRoute,
  getVoiceRoute,
  getVoiceSettingsRoute,
  IVC_MAX_FILES,
  listCollectionsRoute,
  listModelsRoute,
  listVoicesRoute,
  PREMADE_VOICES,
  removeVoiceFromCollectionRoute,
  SimilarVoicesFields,
  searchVoicesRoute,
  sharedVoiceLanguagesRoute,
  sharedVoicesRoute,
  shareVoiceRoute,
  similarVoicesRoute,
  updateCollectionRoute,
  VOICE_SAMPLE_MAX_BYTES,
  voiceAccentsRoute,
  voiceSampleAudioRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { invalid } from '../../platform/errors';
import { acceptMultipart, readMultipartForm } from '../../platform/multipart';
import { registerRoute } from '../../platform/route';
import { sendStoredFile } from '../../platform/storage/send-file';
import { biometricGuard } from '../consent';
import {
  addVoice,
  analyseUpload,
  assertVoiceSlot,
  deleteSample,
  deleteVoice,
  editVoice,
  editVoiceSettings,
  findPreviewableVoice,
  getOwnVoice,
  getSample,
  listOwnVoices,
  type OwnVoiceDeps,
} from './own-voices.service';
import {
  createCollection,
  deleteCollection,
  getCollection,
  listCollections,
  setCollectionVoice,
  updateCollection,
} from './voice-collections.service';
import {
  addSharedVoice,
  listLibraryAccents,
  listLibraryLanguages,
  listSharedVoices,
  shareVoice,
  similarVoices,
} from './voice-library.service';
import { getOwnVoicePreview, getVoicePreview } from './voice-previews';
import { toModelResponse, toOwnVoiceResponse, toVoiceResponse } from './voices.present';
import { DEFAULT_VOICE_SETTINGS, listModels, searchVoices, type VoiceEntry } from './voices.service';

/** Models and voices (issues 4 and 7): premade and own voices, samples, settings, the library. */
export async function voiceRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const guarded = { onRequest: deps.auth.requireAuth };
  // Cloning reads a person's voice: accounts §4 biometric terms first.
  const biometric = biometricGuard(deps);
  const publicUrl = deps.config.publicUrl;
  const db = deps.database.db;
  const own: OwnVoiceDeps = {
    db,
    events: deps.events,
    storage: deps.storage,
    publicUrl,
    previews: { engines: deps.engines, storage: deps.storage, logger: deps.logger, db, models: deps.models },
    denoise: deps.providers.denoise,
  };

  /** Every voice the caller may use: premade, then the workspace's own. */
  const voiceEntries = async (request: FastifyRequest): Promise<VoiceEntry[]> => {
    const { userId, workspaceId } = callerOf(request);
    const mine = await listOwnVoices(db, { userId, workspaceId });
    return [
      ...PREMADE_VOICES.map((v) => ({ voice: toVoiceResponse(v, publicUrl), type: 'default' as const })),
      ...mine.map(({ row, samples }) => ({
        voice: {
          ...toOwnVoiceResponse(row, samples, publicUrl),
          is_owner: row.ownerUserId === userId && !row.originalVoiceId,
        },
        type:
          row.ownerUserId !== userId
            ? ('workspace' as const)
            : row.originalVoiceId
              ? ('community' as const)
              : ('personal' as const),
      })),
    ];
  };

  registerRoute(
    app,
    listModelsRoute,
    async () =>
      listModels({ external: deps.config.externalTts !== undefined, store: deps.models }).map(
        toModelResponse,
      ),
    guarded,
  );
  registerRoute(
    app,
    listVoicesRoute,
    async ({ request }) => ({ voices: (await voiceEntries(request)).map((e) => e.voice) }),
    guarded,
  );
  registerRoute(
    app,
    searchVoicesRoute,
    async ({ request, query }) => {
      const collection = query.collection_id
        ? await getCollection(db, callerOf(request), query.collection_id)
        : undefined;
      const page = searchVoices(await voiceEntries(request), {
        search: query.search,
        sort: query.sort,
        sortDirection: query.sort_direction,
        voiceType: query.voice_type,
        category: query.category,
        fineTuningState: query.fine_tuning_state,
        collectionVoiceIds: collection?.voice_ids,
        pageSize: query.page_size,
        nextPageToken: query.next_page_token,
        voiceIds: typeof query.voice_ids === 'string' ? [query.voice_ids] : query.voice_ids,
      });
      return {
        voices: page.voices,
        has_more: page.hasMore,
        total_count: page.total,
        next_page_token: page.nextPageToken,
      };
    },
    guarded,
  );
  registerRoute(app, getDefaultVoiceSettingsRoute, async () => DEFAULT_VOICE_SETTINGS, guarded);
  // A static path under /v1/voices/: the router prefers it to `/v1/voices/:voice_id` (which, without this
  // route, answered it as a voice named "accents"); voice-library.int.test.ts calls it through the SDK.
  registerRoute(
    app,
    voiceAccentsRoute,
    async ({ query }) => listLibraryAccents(db, query, { external: deps.config.externalTts !== undefined }),
    guarded,
  );
  registerRoute(
    app,
    getVoiceRoute,
    async ({ request, params, query }) => {
      const withSettings = query.with_settings !== 'false';
      const premade = findPremadeVoice(params.voice_id);
      if (premade) return toVoiceResponse(premade, publicUrl, withSettings);
      const { row, samples } = await getOwnVoice(db, callerOf(request), params.voice_id);
      return toOwnVoiceResponse(row, samples, publicUrl, withSettings);
    },
    guarded,
  );
  registerRoute(
    app,
    getVoiceSettingsRoute,
    async ({ request, params }) => {
      if (findPremadeVoice(params.voice_id)) return DEFAULT_VOICE_SETTINGS;
      const { row } = await getOwnVoice(db, callerOf(request), params.voice_id);
      return { ...DEFAULT_VOICE_SETTINGS, ...(row.settings ?? {}) };
    },
    guarded,
  );
  registerRoute(
    app,
    editVoiceSettingsRoute,
    async ({ request, params, body }) => {
      if (findPremadeVoice(params.voice_id))
        throw invalid('voice_id', 'The settings of a premade voice cannot be changed.', 'path');
      await editVoiceSettings(db, callerOf(request), params.voice_id, body);
      return { status: 'ok' as const };
    },
    guarded,
  );
  registerRoute(
    app,
    deleteVoiceRoute,
    async ({ request, params }) => {
      if (findPremadeVoice(params.voice_id))
        throw invalid('voice_id', 'A premade voice cannot be deleted.', 'path');
      await deleteVoice(own, callerOf(request), params.voice_id);
      return { status: 'ok' as const };
    },
    guarded,
  );
  registerRoute(
    app,
    deleteVoiceSampleRoute,
    async ({ request, params }) => {
      await deleteSample(own, callerOf(request), params.voice_id, params.sample_id);
      return { status: 'ok' as const };
    },
    guarded,
  );
  registerRoute(
    app,
    voiceSampleAudioRoute,
    async ({ request, reply, params }) => {
      const { workspaceId } = callerOf(request);
      await getOwnVoice(db, callerOf(request), params.voice_id);
      const sample = await getSample(db, workspaceId, params.voice_id, params.sample_id);
      return sendStoredFile(request, reply, deps.storage, {
        key: sample.storageKey,
        size: sample.sizeBytes,
        contentType: sample.mimeType,
        cacheControl: 'private, max-age=3600',
      });
    },
    guarded,
  );
  registerRoute(
    app,
    shareVoiceRoute,
    async ({ request, params, body }) => {
      const row = await shareVoice(db, callerOf(request), params.voice_id, body);
      return toOwnVoiceResponse(row, [], publicUrl);
    },
    guarded,
  );
  registerRoute(
    app,
    sharedVoicesRoute,
    async ({ request, query }) => listSharedVoices(db, callerOf(request), query, publicUrl),
    guarded,
  );
  registerRoute(app, sharedVoiceLanguagesRoute, async () => listLibraryLanguages(db), guarded);
  registerRoute(
    app,
    addSharedVoiceRoute,
    async ({ request, params, body }) =>
      addSharedVoice(
        { db, events: deps.events },
        callerOf(request),
        params.public_user_id,
        params.voice_id,
        body.new_name,
      ),
    guarded,
  );
  registerRoute(
    app,
    listCollectionsRoute,
    async ({ request }) => ({ collections: await listCollections(db, callerOf(request)) }),
    guarded,
  );
  registerRoute(
    app,
    createCollectionRoute,
    async ({ request, body }) => createCollection(db, callerOf(request), body),
    guarded,
  );
  registerRoute(
    app,
    getCollectionRoute,
    async ({ request, params }) => getCollection(db, callerOf(request), params.collection_id),
    guarded,
  );
  registerRoute(
    app,
    updateCollectionRoute,
    async ({ request, params, body }) => updateCollection(db, callerOf(request), params.collection_id, body),
    guarded,
  );
  registerRoute(
    app,
    deleteCollectionRoute,
    async ({ request, params }) => {
      await deleteCollection(db, callerOf(request).workspaceId, params.collection_id);
      return { collection_id: params.collection_id, status: 'ok' as const };
    },
    guarded,
  );
  for (const [route, present] of [
    [addVoiceToCollectionRoute, true],
    [removeVoiceFromCollectionRoute, false],
  ] as const) {
    registerRoute(
      app,
      route,
      async ({ request, params }) =>
        setCollectionVoice(db, callerOf(request), params.collection_id, params.voice_id, present),
      guarded,
    );
  }

  // Multipart calls in a scope of their own, so the JSON routes above keep refusing form bodies.
  await app.register(async (scope) => {
    await acceptMultipart(scope, VOICE_SAMPLE_MAX_BYTES, IVC_MAX_FILES);
    registerRoute(
      scope,
      addVoiceRoute,
      async ({ request }) => {
        // The plan is checked before the files are read (a refused caller's upload is never buffered).
        await assertVoiceSlot(db, callerOf(request).workspaceId, 'clone');
        const form = await readMultipartForm(request, 'files', AddVoiceFields);
        return addVoice(own, callerOf(request), form.fields, form.files);
      },
      biometric,
    );
    registerRoute(
      scope,
      editVoiceRoute,
      async ({ request, params }) => {
        // An unknown voice is refused before the upload is read.
        await getOwnVoice(db, callerOf(request), params.voice_id, 'editor');
        const form = await readMultipartForm(request, 'files', EditVoiceFields);
        await editVoice(own, callerOf(request), params.voice_id, form.fields, form.files);
        return { status: 'ok' as const };
      },
      biometric,
    );
    registerRoute(
      scope,
      similarVoicesRoute,
      async ({ request }) => {
        const form = await readMultipartForm(request, 'audio_file', SimilarVoicesFields);
        if (!form.file) throw invalid('audio_file', 'Upload a recording of the voice to compare.');
        const profile = await analyseUpload(deps.providers.denoise, form.file, 0, false);
        return similarVoices(
          db,
          callerOf(request),
          profile,
          { threshold: form.fields.similarity_threshold, topK: form.fields.top_k },
          publicUrl,
        );
      },
      guarded,
    );
  });

  // The preview behind `preview_url`: public like the public API's preview files, cached for a day.
  app.get(
    '/v1/voices/:voice_id/preview',
    { schema: { params: z.object({ voice_id: z.string().max(100) }), hide: true } },
    async (request, reply) => {
      const { voice_id } = request.params as { voice_id: string };
      const premade = findPremadeVoice(voice_id);
      let audio: Buffer;
      if (premade) {
        audio = await getVoicePreview(own.previews, premade);
      } else {
        // Own voices' previews are public by their unguessable id, as shared voices' must be.
        audio = await getOwnVoicePreview(own.previews, await findPreviewableVoice(db, voice_id));
      }
      return reply
        .header('content-type', 'audio/mpeg')
        .header('cache-control', premade ? 'public, max-age=86400' : 'private, no-cache')
        .send(audio);
    },
  );
}
