import { analyzeVoice, mergeProfiles, type VoiceProfile } from '@parla/audio';
import { DEFAULT_TTS_MODEL_ID, PVC_MIN_TRAINING_SECONDS } from '@parla/contracts';
import { AppError } from '../../platform/errors';
import type { VoiceCaller } from './own-voices.service';
import { getPvc, type PvcDeps, type PvcJobPayload } from './pvc.service';
import { claimTraining, raiseTrainingProgress } from './pvc.store';
import { decodeSample } from './pvc-samples.service';
import { selectedSpeech } from './pvc-separation.service';
import { baseVoiceFor } from './speaking-voice';
import { getModel } from './voices.service';
import { findWorkspaceVoice, listSamplesUnordered, updateVoice } from './voices.store';

/*
 * Training a professional clone (a job): every sample's selected speech profiled and merged into the
 * voice's profile, for the model named.
 */

/**
 * `POST /v1/voices/pvc/{id}/train`: a verified clone with enough audio is queued for training for the
 * model named (the default model when none is), which `fine_tuning` then reports under that id.
 */
export async function startTraining(
  deps: PvcDeps,
  caller: VoiceCaller,
  voiceId: string,
  modelId: string | null | undefined,
): Promise<void> {
  const model = getModel(modelId ?? DEFAULT_TTS_MODEL_ID, deps.models);
  const { row, samples } = await getPvc(deps.db, caller, voiceId);
  if (!row.isVerified)
    throw new AppError(
      'bad_request',
      'Verify that this is your voice before training it: read the captcha aloud.',
    );
  const seconds = samples.reduce((sum, s) => {
    const sep = s.speakerSeparation;
    if (sep?.status === 'completed' && sep.selected_speaker_ids.length > 0)
      return sum + sep.selected_speaker_ids.reduce((n, id) => n + (sep.speakers[id]?.duration_secs ?? 0), 0);
    const end = s.trimEndMs === null ? s.durationSecs : s.trimEndMs / 1000;
    return sum + end - (s.trimStartMs ?? 0) / 1000;
  }, 0);
  if (seconds < PVC_MIN_TRAINING_SECONDS)
    throw new AppError(
      'bad_request',
      `Training needs at least ${PVC_MIN_TRAINING_SECONDS} seconds of the voice; the samples hold ${Math.floor(seconds)}.`,
    );
  // One training at a time: only the call that moves the voice to queued starts the job.
  if (!(await claimTraining(deps.db, row.id, model.model_id))) return;
  try {
    await deps.queue.enqueue(
      deps.trainJob,
      { workspaceId: caller.workspaceId, voiceId: row.id },
      { workspaceId: caller.workspaceId },
    );
  } catch (error) {
    await updateVoice(deps.db, row.id, {
      fineTuningState: row.fineTuningState,
      fineTuningProgress: row.fineTuningProgress,
      fineTuningModelId: row.fineTuningModelId,
    });
    throw error;
  }
}

/**
 * The training job: every sample decoded (trimmed, denoised when asked), cut to its selected speakers,
 * profiled and merged by speech time into the voice's profile; the base voice follows the result.
 */
export async function runTraining(
  deps: Pick<PvcDeps, 'db' | 'storage' | 'denoise'>,
  payload: PvcJobPayload,
  onProgress: (share: number) => Promise<void>,
): Promise<void> {
  const row = await findWorkspaceVoice(deps.db, payload.workspaceId, payload.voiceId);
  if (!row) return; // deleted since
  await updateVoice(deps.db, row.id, { fineTuningState: 'fine_tuning' });
  try {
    const samples = await listSamplesUnordered(deps.db, row.id);
    const profiles: VoiceProfile[] = [];
    for (const [index, sample] of samples.entries()) {
      const speech = selectedSpeech(await decodeSample(deps, sample), sample.speakerSeparation);
      const profile = analyzeVoice(speech);
      if (profile.pitch.medianHz !== null) profiles.push(profile);
      const share = (index + 1) / samples.length;
      await raiseTrainingProgress(deps.db, row.id, share * 0.95);
      await onProgress(share * 0.95);
    }
    if (profiles.length === 0) throw new Error('no sample holds voiced speech');
    const profile = mergeProfiles(profiles);
    await updateVoice(deps.db, row.id, {
      profile,
      baseVoiceId: baseVoiceFor(profile.pitch.medianHz, row.language, row.labels.gender).voice_id,
      fineTuningState: 'fine_tuned',
      fineTuningProgress: 1,
    });
  } catch (error) {
    await updateVoice(deps.db, row.id, { fineTuningState: 'failed' });
    throw error;
  }
}
