import { randomInt } from 'node:crypto';
import {
  analyzeVoice,
  mergeProfiles,
  type PcmAudio,
  profileDistance,
  separateSpeakers,
  type VoiceProfile,
  visualWaveform,
} from '@parla/audio';
import {
  DEFAULT_TTS_MODEL_ID,
  PREMADE_VOICES,
  PVC_CAPTCHA_MIN_WORD_SHARE,
  PVC_CAPTCHA_TTL_SECONDS,
  PVC_MIN_TRAINING_SECONDS,
  PVC_SAMPLE_MAX_BYTES,
  PVC_SAMPLE_MAX_SECONDS,
  type SpeakerSeparation,
  tierLimits,
} from '@parla/contracts';
import { and, count, eq, sql } from 'drizzle-orm';
import { toUnixSeconds } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError, invalid, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { JobDefinition } from '../../platform/jobs/job-definition';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { UploadedFile } from '../../platform/multipart';
import type { Storage } from '../../platform/storage/storage';
import type { DenoiseProvider } from '../../providers/denoise/denoise-provider';
import type { SttProvider } from '../../providers/stt/stt-provider';
import { words } from '../../providers/stt/words';
import { encodeAudio } from '../../providers/tts/encode-audio';
import { decodeToPcm } from '../../providers/voice-audio/decode-audio';
import { workspaces } from '../workspaces/workspaces.tables';
import {
  analyseSamples,
  getOwnVoice,
  getSample,
  storeSamples,
  takeVoiceSlot,
  type VoiceCaller,
} from './own-voices.service';
import { baseVoiceFor, voiceNotFound } from './speaking-voice';
import { getModel, type ModelAvailability } from './voices.service';
import {
  type StoredSeparation,
  type VoiceRow,
  type VoiceSampleRow,
  voiceSamples,
  voices,
} from './voices.tables';

/*
 * Professional voice clones (issue 7 item 3), over the same voices and samples as instant clones: create
 * an empty professional voice, add long samples, optionally separate their speakers (VAD + clustering,
 * a job) and select the owner's, prove the voice is the owner's by reading a captcha aloud (checked by
 * transcription and by how close the reader sounds to the samples), then train (a job that profiles the
 * selected speech of every sample). Until trained the voice cannot speak.
 */

export interface PvcDeps {
  db: Db;
  storage: Storage;
  denoise: DenoiseProvider;
  queue: JobQueue;
  /** Which models a training may name (the external one only when configured). */
  models: ModelAvailability;
  separateJob: JobDefinition<PvcJobPayload>;
  trainJob: JobDefinition<PvcJobPayload>;
}

export interface PvcJobPayload {
  workspaceId: string;
  voiceId: string;
  sampleId?: string | undefined;
}

/** The rate a sample is decoded at for separation, training and previews. */
const WORK_RATE = 16_000;

/**
 * One of the workspace's professional clones the caller may change (editor or more on it); 404 for other
 * voices and other workspaces.
 */
export async function getPvc(db: Db, caller: VoiceCaller, voiceId: string) {
  const found = await getOwnVoice(db, caller, voiceId, 'editor');
  if (found.row.category !== 'professional') throw voiceNotFound(voiceId);
  return found;
}

/** The plan allows a professional clone (from Creator) and has a professional slot left. */
async function assertProfessionalSlot(tx: Db, workspaceId: string): Promise<void> {
  const [workspace] = await tx
    .select({ tier: workspaces.tier })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  const limits = tierLimits[workspace?.tier ?? 'free'];
  if (!limits.canUseProfessionalVoiceCloning)
    throw new AppError(
      'voice_cloning_not_allowed',
      'Professional voice cloning is available from the Creator plan. Upgrade to create a professional clone.',
    );
  const [row] = await tx
    .select({ n: count() })
    .from(voices)
    .where(and(eq(voices.workspaceId, workspaceId), eq(voices.category, 'professional')));
  if ((row?.n ?? 0) >= limits.professionalVoiceLimit)
    throw new AppError(
      'voice_limit_reached',
      `Your plan allows ${limits.professionalVoiceLimit} professional voice clone${limits.professionalVoiceLimit === 1 ? '' : 's'}. Delete one or upgrade to add another.`,
    );
}

const languageOf = (language: string) => {
  const code = language.toLowerCase().slice(0, 2);
  return PREMADE_VOICES.some((v) => v.language === code) ? code : undefined;
};

const cleanLabels = (labels: Record<string, string | null | undefined> | null | undefined) =>
  Object.fromEntries(
    Object.entries(labels ?? {}).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
  );

/** `POST /v1/voices/pvc`. */
export async function createPvc(
  db: Db,
  caller: VoiceCaller,
  body: {
    name: string;
    language: string;
    description?: string | null | undefined;
    labels?: Record<string, string | null | undefined> | null | undefined;
  },
): Promise<{ voice_id: string }> {
  const language = languageOf(body.language);
  if (!language) throw invalid('language', `Parla's engines do not speak the language "${body.language}".`);
  const labels = cleanLabels(body.labels);
  const id = newId();
  await db.transaction(async (tx) => {
    // The workspace row's lock first, so two creates at once count the professional clones in turn.
    await takeVoiceSlot(tx, caller.workspaceId, 'add');
    await assertProfessionalSlot(tx, caller.workspaceId);
    await tx.insert(voices).values({
      id,
      workspaceId: caller.workspaceId,
      ownerUserId: caller.userId,
      name: body.name,
      description: body.description ?? null,
      labels: { ...labels, language },
      category: 'professional',
      language,
      baseVoiceId: baseVoiceFor(null, language, labels.gender).voice_id,
      profile: null,
      fineTuningState: 'not_started',
      requiresVerification: true,
    });
  });
  return { voice_id: id };
}

/** `POST /v1/voices/pvc/{id}`: name, language, description, labels. */
export async function editPvc(
  db: Db,
  caller: VoiceCaller,
  voiceId: string,
  body: {
    name?: string | undefined;
    language?: string | undefined;
    description?: string | null | undefined;
    labels?: Record<string, string | null | undefined> | null | undefined;
  },
): Promise<{ voice_id: string }> {
  const { row } = await getPvc(db, caller, voiceId);
  const language = body.language === undefined ? row.language : languageOf(body.language);
  if (!language) throw invalid('language', `Parla's engines do not speak the language "${body.language}".`);
  const labels: Record<string, string> = body.labels
    ? { ...cleanLabels(body.labels), language }
    : { ...row.labels, language };
  await db
    .update(voices)
    .set({
      name: body.name ?? row.name,
      description: body.description === undefined ? row.description : body.description,
      labels,
      language,
      baseVoiceId:
        language === row.language && !body.labels
          ? row.baseVoiceId
          : baseVoiceFor(row.profile?.pitch.medianHz ?? null, language, labels.gender).voice_id,
    })
    .where(eq(voices.id, row.id));
  return { voice_id: row.id };
}

/** A sample as the PVC calls show it. */
export function toPvcSample(sample: VoiceSampleRow) {
  return {
    sample_id: sample.id,
    file_name: sample.fileName,
    mime_type: sample.mimeType,
    size_bytes: sample.sizeBytes,
    hash: sample.hash,
    duration_secs: sample.durationSecs,
    remove_background_noise: sample.removeBackgroundNoise,
    has_isolated_audio: false,
    has_isolated_audio_preview: false,
    speaker_separation: sample.speakerSeparation ? toSeparation(sample.voiceId, sample) : null,
    trim_start: sample.trimStartMs,
    trim_end: sample.trimEndMs,
  };
}

/** `POST /v1/voices/pvc/{id}/samples`: each file checked by content and measured, then stored. */
export async function addPvcSamples(
  deps: Pick<PvcDeps, 'db' | 'storage' | 'denoise'>,
  caller: VoiceCaller,
  voiceId: string,
  files: readonly UploadedFile[],
  removeNoise: boolean,
) {
  if (files.length === 0) throw invalid('files', 'Upload at least one recording of the voice.');
  const { row } = await getPvc(deps.db, caller, voiceId);
  const analysed = await analyseSamples(deps.denoise, files, removeNoise, {
    maxBytes: PVC_SAMPLE_MAX_BYTES,
    maxSeconds: PVC_SAMPLE_MAX_SECONDS,
  });
  const rows = await storeSamples(deps, caller.workspaceId, row.id, analysed, removeNoise);
  try {
    await deps.db.insert(voiceSamples).values(rows);
  } catch (error) {
    await Promise.all(rows.map((r) => deps.storage.delete(r.storageKey).catch(() => undefined)));
    throw error;
  }
  return rows.map(toPvcSample);
}

/** `POST /v1/voices/pvc/{id}/samples/{sample}`: selected speakers, trim, name, noise removal. */
export async function updatePvcSample(
  db: Db,
  caller: VoiceCaller,
  voiceId: string,
  sampleId: string,
  body: {
    remove_background_noise?: boolean | null | undefined;
    selected_speaker_ids?: string[] | null | undefined;
    trim_start_time?: number | null | undefined;
    trim_end_time?: number | null | undefined;
    file_name?: string | null | undefined;
  },
): Promise<{ voice_id: string }> {
  const { row } = await getPvc(db, caller, voiceId);
  const sample = await getSample(db, caller.workspaceId, row.id, sampleId);
  let separation = sample.speakerSeparation;
  if (body.selected_speaker_ids) {
    if (separation?.status !== 'completed')
      throw new AppError('bad_request', 'Separate the speakers of this sample before selecting them.');
    const unknown = body.selected_speaker_ids.find((id) => !separation?.speakers[id]);
    if (unknown) throw invalid('selected_speaker_ids', `The sample has no speaker ${unknown}.`);
    separation = { ...separation, selected_speaker_ids: [...new Set(body.selected_speaker_ids)] };
  }
  const lengthMs = Math.round(sample.durationSecs * 1000);
  const trimStart = body.trim_start_time ?? sample.trimStartMs;
  const trimEnd = body.trim_end_time ?? sample.trimEndMs;
  if ((trimStart ?? 0) >= (trimEnd ?? lengthMs) || (trimEnd ?? 0) > lengthMs)
    throw invalid(
      'trim_end_time',
      `The trim must keep part of the sample (0–${lengthMs} ms, start before end).`,
    );
  await db
    .update(voiceSamples)
    .set({
      removeBackgroundNoise: body.remove_background_noise ?? sample.removeBackgroundNoise,
      fileName: body.file_name ?? sample.fileName,
      trimStartMs: trimStart,
      trimEndMs: trimEnd,
      speakerSeparation: separation,
    })
    .where(eq(voiceSamples.id, sample.id));
  return { voice_id: row.id };
}

/** `DELETE /v1/voices/pvc/{id}/samples/{sample}`. */
export async function deletePvcSample(
  deps: Pick<PvcDeps, 'db' | 'storage'>,
  caller: VoiceCaller,
  voiceId: string,
  sampleId: string,
): Promise<void> {
  const { row } = await getPvc(deps.db, caller, voiceId);
  const sample = await getSample(deps.db, caller.workspaceId, row.id, sampleId);
  await deps.db.delete(voiceSamples).where(eq(voiceSamples.id, sample.id));
  await deps.storage.delete(sample.storageKey).catch(() => undefined);
}

/** A stored sample decoded to 16 kHz mono, trimmed as set, denoised when asked. */
async function decodeSample(
  deps: Pick<PvcDeps, 'storage' | 'denoise'>,
  sample: VoiceSampleRow,
  options: { denoise?: boolean } = {},
): Promise<PcmAudio> {
  const bytes = await deps.storage.get(sample.storageKey);
  if (!bytes) throw notFound('The sample audio');
  // Bounded even when a sample's header understated its length (only the header was checked at upload).
  const pcm = await decodeToPcm(bytes, { sampleRate: WORK_RATE, maxSeconds: PVC_SAMPLE_MAX_SECONDS });
  const from = Math.round(((sample.trimStartMs ?? 0) * WORK_RATE) / 1000);
  const to =
    sample.trimEndMs === null ? pcm.samples.length : Math.round((sample.trimEndMs * WORK_RATE) / 1000);
  const trimmed = { ...pcm, samples: pcm.samples.slice(from, Math.max(from, to)) };
  return (options.denoise ?? sample.removeBackgroundNoise) ? deps.denoise.denoise(trimmed) : trimmed;
}

const mp3Base64 = async (pcm: PcmAudio) => (await encodeAudio(pcm, 'mp3_44100_128')).toString('base64');

/** `GET …/samples/{sample}/audio`: the sample (trimmed) as mp3, base64. */
export async function pvcSampleAudio(
  deps: Pick<PvcDeps, 'db' | 'storage' | 'denoise'>,
  caller: VoiceCaller,
  voiceId: string,
  sampleId: string,
  removeNoise: boolean | undefined,
) {
  const { row } = await getPvc(deps.db, caller, voiceId);
  const sample = await getSample(deps.db, caller.workspaceId, row.id, sampleId);
  const pcm = await decodeSample(deps, sample, {
    denoise: removeNoise ?? sample.removeBackgroundNoise,
  });
  return {
    audio_base_64: await mp3Base64(pcm),
    voice_id: row.id,
    sample_id: sample.id,
    media_type: 'audio/mpeg',
    duration_secs: pcm.samples.length / pcm.sampleRate,
  };
}

/** `GET …/samples/{sample}/waveform`. */
export async function pvcSampleWaveform(
  deps: Pick<PvcDeps, 'db' | 'storage' | 'denoise'>,
  caller: VoiceCaller,
  voiceId: string,
  sampleId: string,
) {
  const { row } = await getPvc(deps.db, caller, voiceId);
  const sample = await getSample(deps.db, caller.workspaceId, row.id, sampleId);
  return {
    sample_id: sample.id,
    visual_waveform: visualWaveform(await decodeSample(deps, sample, { denoise: false })),
  };
}

function toSeparation(voiceId: string, sample: VoiceSampleRow): SpeakerSeparation {
  const stored = sample.speakerSeparation;
  if (!stored)
    return {
      voice_id: voiceId,
      sample_id: sample.id,
      status: 'not_started',
      speakers: null,
      selected_speaker_ids: null,
    };
  return {
    voice_id: voiceId,
    sample_id: sample.id,
    status: stored.status,
    speakers:
      stored.status === 'completed'
        ? Object.fromEntries(
            Object.entries(stored.speakers).map(([id, s]) => [
              id,
              { speaker_id: s.speaker_id, duration_secs: s.duration_secs, utterances: s.utterances },
            ]),
          )
        : null,
    selected_speaker_ids: stored.selected_speaker_ids,
  };
}

/** `GET …/samples/{sample}/speakers`. */
export async function pvcSpeakers(db: Db, caller: VoiceCaller, voiceId: string, sampleId: string) {
  const { row } = await getPvc(db, caller, voiceId);
  return toSeparation(row.id, await getSample(db, caller.workspaceId, row.id, sampleId));
}

/** `POST …/samples/{sample}/separate-speakers`: the job starts; `…/speakers` says when it is done. */
export async function startSeparation(
  deps: PvcDeps,
  caller: VoiceCaller,
  voiceId: string,
  sampleId: string,
): Promise<void> {
  const { row } = await getPvc(deps.db, caller, voiceId);
  const sample = await getSample(deps.db, caller.workspaceId, row.id, sampleId);
  // One separation at a time: only the call that moves the sample to pending starts the job.
  const [claimed] = await deps.db
    .update(voiceSamples)
    .set({ speakerSeparation: { status: 'pending', speakers: {}, selected_speaker_ids: [] } })
    .where(
      and(
        eq(voiceSamples.id, sample.id),
        sql`coalesce(${voiceSamples.speakerSeparation}->>'status', '') <> 'pending'`,
      ),
    )
    .returning({ id: voiceSamples.id });
  if (!claimed) return;
  try {
    await deps.queue.enqueue(
      deps.separateJob,
      { workspaceId: caller.workspaceId, voiceId: row.id, sampleId: sample.id },
      { workspaceId: caller.workspaceId },
    );
  } catch (error) {
    await deps.db
      .update(voiceSamples)
      .set({ speakerSeparation: sample.speakerSeparation })
      .where(eq(voiceSamples.id, sample.id));
    throw error;
  }
}

/** The separation job: the speakers of the sample, the one who speaks most selected. */
export async function runSeparation(
  deps: Pick<PvcDeps, 'db' | 'storage' | 'denoise'>,
  payload: PvcJobPayload,
): Promise<void> {
  const [sample] = await deps.db
    .select()
    .from(voiceSamples)
    .where(
      and(eq(voiceSamples.id, payload.sampleId ?? ''), eq(voiceSamples.workspaceId, payload.workspaceId)),
    );
  if (!sample) return; // deleted since
  try {
    const speakers = separateSpeakers(await decodeSample(deps, sample, { denoise: false }));
    const stored: StoredSeparation = {
      status: 'completed',
      speakers: Object.fromEntries(
        speakers.map((s) => [
          s.speakerId,
          {
            speaker_id: s.speakerId,
            duration_secs: s.durationSecs,
            utterances: s.utterances,
            profile: s.profile,
          },
        ]),
      ),
      selected_speaker_ids: speakers.length > 0 ? [speakers[0]?.speakerId as string] : [],
    };
    await deps.db
      .update(voiceSamples)
      .set({ speakerSeparation: stored })
      .where(eq(voiceSamples.id, sample.id));
  } catch (error) {
    await deps.db
      .update(voiceSamples)
      .set({ speakerSeparation: { status: 'failed', speakers: {}, selected_speaker_ids: [] } })
      .where(eq(voiceSamples.id, sample.id));
    throw error;
  }
}

/** The parts of a decoded sample its selected speakers speak (all of it when not separated). */
function selectedSpeech(pcm: PcmAudio, separation: StoredSeparation | null): PcmAudio {
  if (separation?.status !== 'completed' || separation.selected_speaker_ids.length === 0) return pcm;
  const utterances = separation.selected_speaker_ids
    .flatMap((id) => separation.speakers[id]?.utterances ?? [])
    .sort((a, b) => a.start - b.start);
  const parts = utterances.map((u) =>
    pcm.samples.subarray(Math.floor(u.start * pcm.sampleRate), Math.ceil(u.end * pcm.sampleRate)),
  );
  const samples = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    samples.set(part, at);
    at += part.length;
  }
  return { ...pcm, samples };
}

/** `GET …/speakers/{speaker}/audio`: what one speaker says in the sample, as mp3, base64. */
export async function pvcSpeakerAudio(
  deps: Pick<PvcDeps, 'db' | 'storage' | 'denoise'>,
  caller: VoiceCaller,
  voiceId: string,
  sampleId: string,
  speakerId: string,
) {
  const { row } = await getPvc(deps.db, caller, voiceId);
  const sample = await getSample(deps.db, caller.workspaceId, row.id, sampleId);
  const separation = sample.speakerSeparation;
  if (separation?.status !== 'completed' || !separation.speakers[speakerId]) throw notFound('The speaker');
  const pcm = selectedSpeech(await decodeSample(deps, sample, { denoise: false }), {
    ...separation,
    selected_speaker_ids: [speakerId],
  });
  return {
    audio_base_64: await mp3Base64(pcm),
    media_type: 'audio/mpeg',
    duration_secs: pcm.samples.length / pcm.sampleRate,
  };
}

/**
 * What the captcha asks to read: everyday sentences, which the recogniser hears far better than lists of
 * words (it has a language model). Flite's voices reading these measured 69–100 % of the words heard.
 */
const CAPTCHA_SENTENCES = [
  'The meeting has been moved to Thursday afternoon.',
  'Please bring the quarterly report and your laptop.',
  'We need to buy milk, bread and fresh eggs before the store closes.',
  'She finished reading the book and went to sleep early.',
  'The train to the city leaves every twenty minutes from the main station.',
  'Our neighbours painted their front door a bright shade of yellow last weekend.',
  'The museum is closed on Mondays, but the garden stays open until sunset.',
  'Remember to water the plants on the balcony while we are away.',
  'The children built a small boat out of cardboard and sailed it on the pond.',
  'I would like a cup of coffee with a little milk and no sugar.',
  'The weather will be sunny with a light breeze from the west.',
  'My brother moved to a new apartment near the river last spring.',
  'They watched the sun go down over the hills from the old stone bridge.',
];

/** `GET /v1/voices/pvc/{id}/captcha`: a sentence to read aloud within 10 minutes. */
export async function issueCaptcha(db: Db, caller: VoiceCaller, voiceId: string, now: Date) {
  const { row } = await getOwnVoice(db, caller, voiceId, 'admin');
  const text = CAPTCHA_SENTENCES[randomInt(CAPTCHA_SENTENCES.length)] as string;
  await db.update(voices).set({ captchaText: text, captchaIssuedAt: now }).where(eq(voices.id, row.id));
  return { text, expires_at_unix: toUnixSeconds(now) + PVC_CAPTCHA_TTL_SECONDS };
}

/** The longest distance (profileDistance) between the captcha reader and the samples that passes. */
const CAPTCHA_MAX_DISTANCE = 1.2;

/** The voice's reference sound: its profile when trained, else its samples' (selected speakers). */
function referenceProfile(row: VoiceRow, samples: readonly VoiceSampleRow[]): VoiceProfile | undefined {
  if (row.profile) return row.profile;
  const profiles = samples.flatMap((s) => {
    const sep = s.speakerSeparation;
    if (sep?.status === 'completed' && sep.selected_speaker_ids.length > 0)
      return sep.selected_speaker_ids.flatMap((id) => (sep.speakers[id] ? [sep.speakers[id].profile] : []));
    return s.profile ? [s.profile] : [];
  });
  return profiles.length ? mergeProfiles(profiles) : undefined;
}

/**
 * `POST /v1/voices/pvc/{id}/captcha`: the recording must say most of the captcha's words (pocketsphinx,
 * English) and sound like the voice's samples (profileDistance). A pass verifies the voice; a failure
 * is counted with its reason.
 */
export async function verifyCaptcha(
  db: Db,
  caller: VoiceCaller,
  voiceId: string,
  recording: UploadedFile | undefined,
  now: Date,
  stt: SttProvider,
): Promise<void> {
  const { row, samples } = await getOwnVoice(db, caller, voiceId, 'admin');
  if (!recording) throw invalid('recording', 'Send the recording of the captcha read aloud.');
  if (
    !row.captchaText ||
    !row.captchaIssuedAt ||
    now.getTime() - row.captchaIssuedAt.getTime() > PVC_CAPTCHA_TTL_SECONDS * 1000
  )
    throw new AppError('bad_request', 'Ask for a new captcha first: there is none, or it has expired.');
  const reference = referenceProfile(row, samples);
  if (!reference) throw new AppError('bad_request', 'Add samples of the voice before verifying it.');
  let pcm: PcmAudio;
  try {
    pcm = await decodeToPcm(recording.bytes, { sampleRate: WORK_RATE, maxSeconds: 60 });
  } catch {
    throw invalid('recording', 'The recording could not be read as audio.');
  }
  const profile = analyzeVoice(pcm);
  let failure: string | undefined;
  if (profile.pitch.medianHz === null) failure = 'No speech was heard in the recording.';
  if (!failure && row.language === 'en') {
    const heard = new Set(words(await stt.transcribe(pcm, { timeoutMs: 60_000 })));
    const wanted = words(row.captchaText);
    const share = wanted.filter((w) => heard.has(w)).length / wanted.length;
    if (share < PVC_CAPTCHA_MIN_WORD_SHARE)
      failure = 'The recording does not say the captcha sentence. Read the sentence shown, clearly.';
  }
  if (!failure && profileDistance(profile, reference) > CAPTCHA_MAX_DISTANCE)
    failure = 'The voice in the recording does not sound like the samples of this voice.';
  if (failure) {
    await db
      .update(voices)
      .set({
        verificationAttempts: sql`${voices.verificationAttempts} + 1`,
        verificationFailures: sql`${voices.verificationFailures} || ${JSON.stringify([failure])}::jsonb`,
      })
      .where(eq(voices.id, row.id));
    throw new AppError('bad_request', failure);
  }
  await db
    .update(voices)
    .set({
      isVerified: true,
      requiresVerification: false,
      // A moderation captcha (§3 safety_control CAPTCHA) is answered by the same reading.
      safetyControl: row.safetyControl === 'CAPTCHA' ? null : row.safetyControl,
      captchaText: null,
      captchaIssuedAt: null,
      verificationAttempts: sql`${voices.verificationAttempts} + 1`,
    })
    .where(eq(voices.id, row.id));
}

/** `POST /v1/voices/pvc/{id}/verification`: the documents are kept and the request recorded for an admin. */
export async function requestManualVerification(
  deps: Pick<PvcDeps, 'db' | 'storage'>,
  caller: VoiceCaller,
  voiceId: string,
  files: readonly UploadedFile[],
  now: Date,
): Promise<void> {
  const { row } = await getPvc(deps.db, caller, voiceId);
  if (files.length === 0) throw invalid('files', 'Attach at least one document for the verification.');
  for (const [index, file] of files.entries())
    await deps.storage.put(
      `voices/${caller.workspaceId}/${row.id}/verification/${now.getTime()}-${index}`,
      file.bytes,
    );
  await deps.db.update(voices).set({ manualVerificationRequestedAt: now }).where(eq(voices.id, row.id));
}

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
  const [claimed] = await deps.db
    .update(voices)
    .set({ fineTuningState: 'queued', fineTuningProgress: 0, fineTuningModelId: model.model_id })
    .where(
      and(
        eq(voices.id, row.id),
        sql`coalesce(${voices.fineTuningState}, '') not in ('queued', 'fine_tuning')`,
      ),
    )
    .returning({ id: voices.id });
  if (!claimed) return;
  try {
    await deps.queue.enqueue(
      deps.trainJob,
      { workspaceId: caller.workspaceId, voiceId: row.id },
      { workspaceId: caller.workspaceId },
    );
  } catch (error) {
    await deps.db
      .update(voices)
      .set({
        fineTuningState: row.fineTuningState,
        fineTuningProgress: row.fineTuningProgress,
        fineTuningModelId: row.fineTuningModelId,
      })
      .where(eq(voices.id, row.id));
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
  const [row] = await deps.db
    .select()
    .from(voices)
    .where(and(eq(voices.id, payload.voiceId), eq(voices.workspaceId, payload.workspaceId)));
  if (!row) return; // deleted since
  await deps.db.update(voices).set({ fineTuningState: 'fine_tuning' }).where(eq(voices.id, row.id));
  try {
    const samples = await deps.db.select().from(voiceSamples).where(eq(voiceSamples.voiceId, row.id));
    const profiles: VoiceProfile[] = [];
    for (const [index, sample] of samples.entries()) {
      const speech = selectedSpeech(await decodeSample(deps, sample), sample.speakerSeparation);
      const profile = analyzeVoice(speech);
      if (profile.pitch.medianHz !== null) profiles.push(profile);
      const share = (index + 1) / samples.length;
      await deps.db
        .update(voices)
        .set({ fineTuningProgress: share * 0.95 })
        .where(eq(voices.id, row.id));
      await onProgress(share * 0.95);
    }
    if (profiles.length === 0) throw new Error('no sample holds voiced speech');
    const profile = mergeProfiles(profiles);
    await deps.db
      .update(voices)
      .set({
        profile,
        baseVoiceId: baseVoiceFor(profile.pitch.medianHz, row.language, row.labels.gender).voice_id,
        fineTuningState: 'fine_tuned',
        fineTuningProgress: 1,
      })
      .where(eq(voices.id, row.id));
  } catch (error) {
    await deps.db.update(voices).set({ fineTuningState: 'failed' }).where(eq(voices.id, row.id));
    throw error;
  }
}
