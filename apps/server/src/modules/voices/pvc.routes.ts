import {
  AddPvcSamplesFields,
  addPvcSamplesRoute,
  createPvcRoute,
  deletePvcSampleRoute,
  editPvcRoute,
  PVC_MAX_FILES,
  PVC_MAX_VERIFICATION_FILES,
  PVC_SAMPLE_MAX_BYTES,
  pvcCaptchaRoute,
  pvcSampleAudioRoute,
  pvcSampleWaveformRoute,
  pvcSpeakerAudioRoute,
  pvcSpeakersRoute,
  pvcVerificationRoute,
  separateSpeakersRoute,
  trainPvcRoute,
  updatePvcSampleRoute,
  VOICE_SAMPLE_MAX_BYTES,
  verifyPvcCaptchaRoute,
} from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { acceptMultipart, readMultipartForm } from '../../platform/multipart';
import { registerRoute } from '../../platform/route';
import { biometricGuard } from '../consent';
import { getOwnVoice } from './own-voices.service';
import { pvcSeparateJob, pvcTrainJob } from './pvc.jobs';
import { createPvc, editPvc, getPvc, type PvcDeps } from './pvc.service';
import {
  addPvcSamples,
  deletePvcSample,
  pvcSampleAudio,
  pvcSampleWaveform,
  updatePvcSample,
} from './pvc-samples.service';
import { pvcSpeakerAudio, pvcSpeakers, startSeparation } from './pvc-separation.service';
import { startTraining } from './pvc-training.service';
import { issueCaptcha, requestManualVerification, verifyCaptcha } from './pvc-verification.service';

/** Professional voice clones under /v1/voices/pvc (issue 7 item 3, history/voices §7). */
export async function pvcRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const db = deps.database.db;
  const pvc: PvcDeps = {
    db,
    storage: deps.storage,
    denoise: deps.providers.denoise,
    queue: deps.queue,
    separateJob: pvcSeparateJob,
    trainJob: pvcTrainJob,
    models: { external: deps.config.externalTts !== undefined },
  };
  const guarded = { onRequest: deps.auth.requireAuth };
  // A professional clone is made from a person's voice: accounts §4 biometric terms first.
  const biometric = biometricGuard(deps);
  const ok = { status: 'ok' as const };

  registerRoute(
    app,
    createPvcRoute,
    async ({ request, body }) => createPvc({ db, events: deps.events }, callerOf(request), body),
    biometric,
  );
  registerRoute(
    app,
    editPvcRoute,
    async ({ request, params, body }) => editPvc(db, callerOf(request), params.voice_id, body),
    guarded,
  );
  registerRoute(
    app,
    updatePvcSampleRoute,
    async ({ request, params, body }) =>
      updatePvcSample(db, callerOf(request), params.voice_id, params.sample_id, body),
    guarded,
  );
  registerRoute(
    app,
    deletePvcSampleRoute,
    async ({ request, params }) => {
      await deletePvcSample(pvc, callerOf(request), params.voice_id, params.sample_id);
      return ok;
    },
    guarded,
  );
  registerRoute(
    app,
    pvcSampleAudioRoute,
    async ({ request, params, query }) =>
      pvcSampleAudio(
        pvc,
        callerOf(request),
        params.voice_id,
        params.sample_id,
        query.remove_background_noise === undefined ? undefined : query.remove_background_noise === 'true',
      ),
    guarded,
  );
  registerRoute(
    app,
    pvcSampleWaveformRoute,
    async ({ request, params }) =>
      pvcSampleWaveform(pvc, callerOf(request), params.voice_id, params.sample_id),
    guarded,
  );
  registerRoute(
    app,
    pvcSpeakersRoute,
    async ({ request, params }) => pvcSpeakers(db, callerOf(request), params.voice_id, params.sample_id),
    guarded,
  );
  registerRoute(
    app,
    separateSpeakersRoute,
    async ({ request, params }) => {
      await startSeparation(pvc, callerOf(request), params.voice_id, params.sample_id);
      return ok;
    },
    guarded,
  );
  registerRoute(
    app,
    pvcSpeakerAudioRoute,
    async ({ request, params }) =>
      pvcSpeakerAudio(pvc, callerOf(request), params.voice_id, params.sample_id, params.speaker_id),
    guarded,
  );
  registerRoute(
    app,
    pvcCaptchaRoute,
    async ({ request, params }) => issueCaptcha(db, callerOf(request), params.voice_id, deps.clock.now()),
    guarded,
  );
  registerRoute(
    app,
    trainPvcRoute,
    async ({ request, params, body }) => {
      await startTraining(pvc, callerOf(request), params.voice_id, body?.model_id);
      return ok;
    },
    guarded,
  );

  // Multipart calls in scopes of their own (so the JSON routes above keep refusing form bodies), each
  // with the smallest limits it needs; the voice is checked before anything is read.
  await app.register(async (scope) => {
    await acceptMultipart(scope, PVC_SAMPLE_MAX_BYTES, PVC_MAX_FILES);
    registerRoute(
      scope,
      addPvcSamplesRoute,
      async ({ request, params }) => {
        const caller = callerOf(request);
        await getPvc(db, caller, params.voice_id);
        const form = await readMultipartForm(request, 'files', AddPvcSamplesFields);
        return addPvcSamples(pvc, caller, params.voice_id, form.files, form.fields.remove_background_noise);
      },
      biometric,
    );
  });
  await app.register(async (scope) => {
    await acceptMultipart(scope, VOICE_SAMPLE_MAX_BYTES, 1);
    registerRoute(
      scope,
      verifyPvcCaptchaRoute,
      async ({ request, params }) => {
        const caller = callerOf(request);
        await getOwnVoice(db, caller, params.voice_id, 'admin');
        const form = await readMultipartForm(request, 'recording', z.object({}));
        await verifyCaptcha(db, caller, params.voice_id, form.file, deps.clock.now(), deps.providers.stt);
        return ok;
      },
      guarded,
    );
  });
  await app.register(async (scope) => {
    await acceptMultipart(scope, VOICE_SAMPLE_MAX_BYTES, PVC_MAX_VERIFICATION_FILES);
    registerRoute(
      scope,
      pvcVerificationRoute,
      async ({ request, params }) => {
        const caller = callerOf(request);
        await getPvc(db, caller, params.voice_id);
        const form = await readMultipartForm(
          request,
          'files',
          z.object({ extra_text: z.string().max(2000).optional() }),
        );
        await requestManualVerification(pvc, caller, params.voice_id, form.files, deps.clock.now());
        return ok;
      },
      guarded,
    );
  });
}
