import { createHash } from 'node:crypto';
import { analyzeVoice, mergeProfiles, PITCH_UNAVAILABLE_MESSAGES, type VoiceProfile } from '@parla/audio';
import {
  type AddVoiceFields,
  IVC_MAX_FILES,
  maxVoiceAddEdits,
  PREMADE_VOICES,
  type ResourceRole,
  tierLimits,
  VOICE_SAMPLE_MAX_BYTES,
  VOICE_SAMPLE_MAX_SECONDS,
  type VoiceSettings,
} from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError, invalid, notFound } from '../../platform/errors';
import { voiceAdded, voiceRemoved } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import { decodeToPcm } from '../../platform/media/decode-audio';
import { probeUpload, UploadRejectedError } from '../../platform/media/probe-upload';
import type { UploadedFile } from '../../platform/multipart';
import type { Storage } from '../../platform/storage/storage';
import type { DenoiseProvider } from '../../providers/denoise/denoise-provider';
import { getUser } from '../users';
import { assertRole, callerRoleOn, forgetShares, lockWorkspace } from '../workspaces';
import {
  baseVoiceFor,
  cloneKokoroVoice,
  ownSpeaking,
  type SpeakingVoice,
  unusableReason,
  voiceNotFound,
} from './speaking-voice';
import { ownPreviewKey, type VoicePreviewDeps } from './voice-previews';
import {
  countVoiceAddEdit,
  countWorkspaceVoices,
  deleteSampleRow,
  deleteVoiceRow,
  findOwnVoice,
  findSample,
  findVoiceById,
  insertSamples,
  insertVoice,
  listOwnVoiceRows,
  listSamples,
  listSamplesOfVoices,
  readVoiceAllowance,
  setCopiesStatus,
  updateVoice,
} from './voices.store';
import type { VoiceRow, VoiceSampleRow } from './voices.tables';

export interface OwnVoiceDeps {
  db: Db;
  /** `voice.added` and `voice.removed` (the checklist, the workspace's webhooks). */
  events: EventBus;
  storage: Storage;
  previews: VoicePreviewDeps;
  publicUrl: string;
  denoise: DenoiseProvider;
}

export interface VoiceCaller {
  userId: string;
  workspaceId: string;
}

/** The workspace's own voices the caller may use (theirs and those shared with them), newest first, with their samples. */
export async function listOwnVoices(
  db: Db,
  caller: VoiceCaller,
): Promise<{ row: VoiceRow; samples: VoiceSampleRow[] }[]> {
  const rows = await listOwnVoiceRows(db, caller);
  const samples = await listSamplesOfVoices(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ row, samples: samples.filter((s) => s.voiceId === row.id) }));
}

/**
 * One own voice with its samples, when the caller holds at least `needed` on it (its maker holds admin;
 * others what was shared with them): 404 `voice_not_found` for an unknown id, another workspace's, or a
 * member's voice not shared with the caller; 403 when shared with too small a role, and for a change to a
 * built-in voice (the installation's, which no user changes).
 */
export async function getOwnVoice(
  db: Db,
  caller: VoiceCaller,
  voiceId: string,
  needed: ResourceRole = 'viewer',
): Promise<{ row: VoiceRow; samples: VoiceSampleRow[] }> {
  const row = await findOwnVoice(db, caller, voiceId);
  if (!row) {
    // A change to one of the library's built-in voices is refused by name rather than as unknown.
    if (needed !== 'viewer' && (await findVoiceById(db, voiceId))?.builtIn)
      throw new AppError(
        'forbidden',
        'This is a built-in voice of the library: it cannot be edited, shared or deleted. Add it to your voices to use it.',
      );
    throw voiceNotFound(voiceId);
  }
  if (needed !== 'viewer') {
    assertRole(
      'voice',
      await callerRoleOn(db, caller, 'voice', {
        id: row.id,
        workspaceId: caller.workspaceId,
        creatorId: row.ownerUserId,
      }),
      needed,
    );
  }
  const samples = await listSamples(db, row.id);
  return { row, samples };
}

/** A sample checked, decoded and measured, not yet stored. */
export interface AnalysedSample {
  file: UploadedFile;
  mimeType: string;
  extension: string;
  durationSecs: number;
  profile: VoiceProfile;
}

/** The rate samples are analysed at: enough for speech, and the profile reads 8 kHz and below. */
const ANALYSIS_RATE = 16_000;

/** How large and how long one sample may be. */
export interface SampleLimits {
  maxBytes: number;
  maxSeconds: number;
}

/** An instant clone's samples, and recordings for similar voices. */
const IVC_SAMPLE_LIMITS: SampleLimits = {
  maxBytes: VOICE_SAMPLE_MAX_BYTES,
  maxSeconds: VOICE_SAMPLE_MAX_SECONDS,
};

/**
 * One uploaded sample: identified by content against the audio and video types of history/voices §5,
 * decoded, denoised if asked (RNNoise) and analysed. A file that is not audio, is longer than the limit
 * or holds no voiced speech is refused with a 422 naming it. The length is checked from ffprobe's reading
 * of the header before anything is decoded; the profile reads at most VOICE_SAMPLE_MAX_SECONDS, and where
 * that is the whole allowed sample, a file holding more than its header says is refused by the decode.
 */
async function analyseSample(
  denoise: DenoiseProvider,
  file: UploadedFile,
  index: number,
  removeNoise: boolean,
  limits: SampleLimits = IVC_SAMPLE_LIMITS,
): Promise<AnalysedSample> {
  const refuse = (message: string) => invalid('files', `${file.filename || `File ${index + 1}`}: ${message}`);
  try {
    const probe = await probeUpload(file.bytes, limits);
    const decoded = await decodeToPcm(file.bytes, {
      sampleRate: ANALYSIS_RATE,
      maxSeconds: Math.min(limits.maxSeconds, VOICE_SAMPLE_MAX_SECONDS),
      refuseLonger: limits.maxSeconds <= VOICE_SAMPLE_MAX_SECONDS,
    });
    const cleaned = removeNoise ? await denoise.denoise(decoded) : decoded;
    const profile = analyzeVoice(cleaned);
    if (profile.pitch.medianHz === null) throw refuse(PITCH_UNAVAILABLE_MESSAGES[profile.pitch.unavailable]);
    const format = probe.format.split(',')[0] ?? 'audio';
    return {
      file,
      mimeType: `${probe.kind}/${format === 'mov' ? 'mp4' : format}`,
      extension: format === 'mov' ? 'mp4' : format,
      durationSecs: probe.durationSeconds ?? decoded.samples.length / ANALYSIS_RATE,
      profile,
    };
  } catch (error) {
    if (error instanceof UploadRejectedError) throw refuse(error.message);
    throw error;
  }
}

/** The profile of one uploaded recording (similar voices), refused like a sample. */
export async function analyseUpload(
  denoise: DenoiseProvider,
  file: UploadedFile,
  index: number,
  removeNoise: boolean,
): Promise<VoiceProfile> {
  return (await analyseSample(denoise, file, index, removeNoise)).profile;
}

/** Every sample, one at a time (each decodes and analyses on this process's cores). */
export async function analyseSamples(
  denoise: DenoiseProvider,
  files: readonly UploadedFile[],
  removeNoise: boolean,
  limits: SampleLimits = IVC_SAMPLE_LIMITS,
): Promise<AnalysedSample[]> {
  const out: AnalysedSample[] = [];
  for (const [index, file] of files.entries())
    out.push(await analyseSample(denoise, file, index, removeNoise, limits));
  return out;
}

/** The language of a voice's labels (ISO 639-1 when it names one this server speaks), else English. */
function languageOf(labels: Record<string, string> | null | undefined): string {
  const wanted = labels?.language?.toLowerCase().slice(0, 2);
  return wanted && PREMADE_VOICES.some((v) => v.language === wanted) ? wanted : 'en';
}

/**
 * The plan's limits on adding a voice (accounts §9): instant cloning from Starter, at most `voice_limit`
 * own voices, and at most round(1.5 × voice_limit + 50) adds and edits in a period. Counted under a lock
 * on the workspace row, so two adds at once cannot both take the last slot.
 */
export async function assertVoiceSlot(
  tx: Db,
  workspaceId: string,
  kind: 'clone' | 'add' | 'edit',
  lock = false,
): Promise<void> {
  // The lock first, the read after it: a read that waited for the lock in the same statement would see
  // the count as it was before the wait (PostgreSQL re-reads only the locked row).
  if (lock) await lockWorkspace(tx, workspaceId);
  const workspace = await readVoiceAllowance(tx, workspaceId);
  if (!workspace)
    throw new AppError('unauthorized', 'Your workspace no longer exists. Please sign in again.');
  const limits = tierLimits[workspace.tier];
  if (kind === 'clone' && !limits.canUseInstantVoiceCloning)
    throw new AppError(
      'voice_cloning_not_allowed',
      'Instant voice cloning is available from the Starter plan. Upgrade to clone a voice.',
    );
  if (kind !== 'edit') {
    if ((await countWorkspaceVoices(tx, workspaceId)) >= limits.voiceLimit)
      throw new AppError(
        'voice_limit_reached',
        `You have reached your limit of ${limits.voiceLimit} custom voices. Delete a voice or upgrade your plan to add another.`,
      );
  }
  const maxEdits = maxVoiceAddEdits(limits.voiceLimit);
  if (workspace.edits >= maxEdits)
    throw new AppError(
      'voice_add_edit_limit_reached',
      `You have added or edited voices ${maxEdits} times this period, the most your plan allows. The count resets with your credits.`,
    );
}

/** assertVoiceSlot under the workspace row's lock, then one more add-edit counted. */
export async function takeVoiceSlot(
  tx: Db,
  workspaceId: string,
  kind: 'clone' | 'add' | 'edit',
): Promise<void> {
  await assertVoiceSlot(tx, workspaceId, kind, true);
  await countVoiceAddEdit(tx, workspaceId);
}

const sampleKey = (workspaceId: string, voiceId: string, sampleId: string, extension: string) =>
  `voices/${workspaceId}/${voiceId}/${sampleId}.${extension}`;

/** Stores the samples' files and returns their rows (not yet inserted). */
export async function storeSamples(
  deps: Pick<OwnVoiceDeps, 'storage'>,
  workspaceId: string,
  voiceId: string,
  samples: readonly AnalysedSample[],
  removeBackgroundNoise = false,
): Promise<VoiceSampleRow[]> {
  const rows: VoiceSampleRow[] = [];
  for (const sample of samples) {
    const id = newId();
    const storageKey = sampleKey(workspaceId, voiceId, id, sample.extension);
    await deps.storage.put(storageKey, sample.file.bytes);
    rows.push({
      id,
      voiceId,
      workspaceId,
      fileName: (sample.file.filename || `sample.${sample.extension}`).slice(0, 255),
      mimeType: sample.mimeType,
      sizeBytes: sample.file.bytes.byteLength,
      hash: createHash('sha256').update(sample.file.bytes).digest('hex'),
      durationSecs: sample.durationSecs,
      storageKey,
      profile: sample.profile,
      removeBackgroundNoise,
      trimStartMs: null,
      trimEndMs: null,
      speakerSeparation: null,
      createdAt: new Date(),
    });
  }
  return rows;
}

/** The voice's profile from its samples' profiles, weighted by their speech. */
const profileOf = (samples: readonly Pick<VoiceSampleRow, 'profile'>[]) => {
  const profiles = samples.flatMap((s) => (s.profile ? [s.profile] : []));
  return profiles.length ? mergeProfiles(profiles) : null;
};

function checkFileCount(files: readonly UploadedFile[], required: boolean): void {
  if (required && files.length === 0)
    throw invalid('files', 'Upload at least one audio sample of the voice.');
  if (files.length > IVC_MAX_FILES) throw invalid('files', `Upload at most ${IVC_MAX_FILES} samples.`);
}

/**
 * `POST /v1/voices/add`: an instant clone. The samples are measured into one profile; the voice speaks
 * with its language's premade base of its gender (classic models) or the Kokoro blend nearest the profile
 * (the neural model, decision 22), shifted in pitch and formants to the profile.
 */
export async function addVoice(
  deps: OwnVoiceDeps,
  caller: VoiceCaller,
  fields: AddVoiceFields,
  files: readonly UploadedFile[],
): Promise<{ voice_id: string; requires_verification: boolean }> {
  checkFileCount(files, true);
  // The plan is checked before the work of decoding (and again under the lock when the voice is saved).
  await assertVoiceSlot(deps.db, caller.workspaceId, 'clone');
  const analysed = await analyseSamples(deps.denoise, files, fields.remove_background_noise);
  const profile = mergeProfiles(analysed.map((s) => s.profile));
  const language = languageOf(fields.labels);
  const base = baseVoiceFor(profile.pitch.medianHz, language, fields.labels?.gender);
  const voiceId = newId();
  // history/voices §5: an account in probation must verify its clones before they speak.
  const owner = await getUser(deps.db, caller.userId);
  const requiresVerification = owner?.isInProbation ?? false;
  const sampleRows = await storeSamples(
    deps,
    caller.workspaceId,
    voiceId,
    analysed,
    fields.remove_background_noise,
  );
  try {
    await deps.events.transaction(async (tx, events) => {
      await takeVoiceSlot(tx, caller.workspaceId, 'clone');
      await insertVoice(tx, {
        id: voiceId,
        workspaceId: caller.workspaceId,
        ownerUserId: caller.userId,
        name: fields.name,
        description: fields.description ?? null,
        labels: fields.labels ?? {},
        category: 'cloned',
        language,
        baseVoiceId: base.voice_id,
        profile,
        kokoroVoice: cloneKokoroVoice(profile, language, fields.labels?.gender),
        requiresVerification,
      });
      await insertSamples(tx, sampleRows);
      await events.publish(voiceAdded, {
        userId: caller.userId,
        workspaceId: caller.workspaceId,
        voiceId,
        source: 'instant_clone',
      });
    });
  } catch (error) {
    await Promise.all(sampleRows.map((s) => deps.storage.delete(s.storageKey).catch(() => undefined)));
    throw error;
  }
  return { voice_id: voiceId, requires_verification: requiresVerification };
}

/**
 * A clone's Kokoro blend after its samples changed: chosen again for its new profile when it speaks on
 * Kokoro; a clone made before Kokoro keeps none (the engine it was made with), and a profile unchanged
 * (`null`) keeps the blend.
 */
function remeasuredKokoroVoice(row: VoiceRow, profile: VoiceProfile | null): string | null {
  if (row.kokoroVoice === null || profile === null) return row.kokoroVoice;
  return cloneKokoroVoice(profile, row.language, row.labels.gender) ?? row.kokoroVoice;
}

/**
 * `POST /v1/voices/{id}/edit`: name, description and labels replaced; new samples added (the profile is
 * measured again from all of them). Counts as an add-edit only when samples are added.
 */
export async function editVoice(
  deps: OwnVoiceDeps,
  caller: VoiceCaller,
  voiceId: string,
  fields: AddVoiceFields,
  files: readonly UploadedFile[],
): Promise<void> {
  checkFileCount(files, false);
  const { row, samples } = await getOwnVoice(deps.db, caller, voiceId, 'editor');
  if (files.length > 0 && row.originalVoiceId !== null)
    throw new AppError('bad_request', 'Samples cannot be added to a voice from the library.');
  // A professional clone's profile comes from training on its selected speakers, not from every sample.
  if (files.length > 0 && row.category !== 'cloned')
    throw new AppError(
      'bad_request',
      row.category === 'professional'
        ? 'Add samples to a professional clone with POST /v1/voices/pvc/{voice_id}/samples, then train it again.'
        : 'A designed voice has no samples to add to.',
    );
  const analysed = await analyseSamples(deps.denoise, files, fields.remove_background_noise);
  const added = await storeSamples(
    deps,
    caller.workspaceId,
    row.id,
    analysed,
    fields.remove_background_noise,
  );
  try {
    await deps.db.transaction(async (tx) => {
      if (added.length > 0) await takeVoiceSlot(tx, caller.workspaceId, 'edit');
      const profile = added.length > 0 ? profileOf([...samples, ...added]) : row.profile;
      await updateVoice(tx, row.id, {
        name: fields.name,
        description: fields.description ?? row.description,
        labels: fields.labels ?? row.labels,
        profile,
        kokoroVoice: remeasuredKokoroVoice(row, added.length > 0 ? profile : null),
      });
      if (added.length > 0) await insertSamples(tx, added);
    });
  } catch (error) {
    await Promise.all(added.map((s) => deps.storage.delete(s.storageKey).catch(() => undefined)));
    throw error;
  }
  await forgetOwnPreview(deps.storage, row.id);
}

/** `DELETE /v1/voices/{id}`: the voice, its samples and its preview; library copies become unusable. */
export async function deleteVoice(deps: OwnVoiceDeps, caller: VoiceCaller, voiceId: string): Promise<void> {
  const { row, samples } = await getOwnVoice(deps.db, caller, voiceId, 'admin');
  await deps.events.transaction(async (tx, events) => {
    await deleteVoiceRow(tx, row.id);
    await forgetShares(tx, 'voice', row.id);
    // Copies other workspaces added from the library have no original left: §5 copied_disabled.
    await setCopiesStatus(tx, row.id, 'copied_disabled');
    await events.publish(voiceRemoved, {
      userId: caller.userId,
      workspaceId: caller.workspaceId,
      voiceId: row.id,
    });
  });
  // Every file of the voice: its samples and any verification documents.
  const files = await deps.storage.list(`voices/${caller.workspaceId}/${row.id}/`).catch(() => []);
  const keys = new Set([...samples.map((s) => s.storageKey), ...files]);
  await Promise.all([...keys].map((key) => deps.storage.delete(key).catch(() => undefined)));
  await forgetOwnPreview(deps.storage, row.id);
}

/** One sample of an own voice; 404 otherwise. */
export async function getSample(
  db: Db,
  workspaceId: string,
  voiceId: string,
  sampleId: string,
): Promise<VoiceSampleRow> {
  const sample = await findSample(db, workspaceId, voiceId, sampleId);
  if (!sample) throw notFound('The sample');
  return sample;
}

/**
 * `DELETE /v1/voices/{id}/samples/{sample}`: the profile is measured again from the samples left. The
 * last sample stays: a clone without samples would have nothing to sound like.
 */
export async function deleteSample(
  deps: OwnVoiceDeps,
  caller: VoiceCaller,
  voiceId: string,
  sampleId: string,
): Promise<void> {
  const { row, samples } = await getOwnVoice(deps.db, caller, voiceId, 'editor');
  const sample = await getSample(deps.db, caller.workspaceId, row.id, sampleId);
  const rest = samples.filter((s) => s.id !== sample.id);
  if (rest.length === 0 && row.category === 'cloned')
    throw new AppError(
      'bad_request',
      'This is the voice’s only sample: add another before deleting it, or delete the voice.',
    );
  await deps.db.transaction(async (tx) => {
    await deleteSampleRow(tx, sample.id);
    // Only an instant clone is measured from its samples; a professional clone keeps its training.
    if (row.category === 'cloned') {
      const profile = profileOf(rest) ?? row.profile;
      await updateVoice(tx, row.id, { profile, kokoroVoice: remeasuredKokoroVoice(row, profile) });
    }
  });
  await deps.storage.delete(sample.storageKey).catch(() => undefined);
  await forgetOwnPreview(deps.storage, row.id);
}

/** `POST /v1/voices/{id}/settings/edit`: the given settings over the voice's current ones. */
export async function editVoiceSettings(
  db: Db,
  caller: VoiceCaller,
  voiceId: string,
  settings: VoiceSettings,
): Promise<void> {
  const { row } = await getOwnVoice(db, caller, voiceId, 'editor');
  const given = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== null && v !== undefined));
  await updateVoice(db, row.id, { settings: { ...(row.settings ?? {}), ...given } });
}

/** Drops an own voice's cached preview (it is made again on the next request). */
export async function forgetOwnPreview(storage: Storage, voiceId: string): Promise<void> {
  await storage.delete(ownPreviewKey(voiceId)).catch(() => undefined);
}

/**
 * The own voice behind a public preview URL (public by its unguessable id, as shared voices' must be),
 * as it speaks; 404 `voice_not_found` when there is none or it cannot speak.
 */
export async function findPreviewableVoice(db: Db, voiceId: string): Promise<SpeakingVoice> {
  const row = await findVoiceById(db, voiceId);
  const speaking = row && !unusableReason(row) ? ownSpeaking(row) : undefined;
  if (!speaking) throw voiceNotFound(voiceId);
  return speaking;
}
