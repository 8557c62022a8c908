import {
  CreatePvcBody,
  ESPEAK_LANGUAGES,
  PREMADE_VOICES,
  PVC_MAX_FILES,
  PVC_MIN_TRAINING_SECONDS,
  PVC_SAMPLE_MAX_BYTES,
  type SpeakerSeparation,
  type SubscriptionResponse,
  VOICE_DESCRIPTION_MAX,
  type VoiceResponse,
} from '@parla/contracts';
import { AUDIO_UPLOAD_TYPES_TEXT, formatMegabytes, isAudioUpload } from '../../lib/audio-upload-types';

/*
 * Professional voice cloning in the web app (issue 18 item 5; history/voices §4 "Professional voice clone
 * flow", §7 /v1/voices/pvc): the steps, where a voice stands, and the checks made before a request.
 */

/** The steps of the flow, in order. */
export const PVC_STEPS = ['details', 'samples', 'speakers', 'verify', 'train'] as const;
export type PvcStep = (typeof PVC_STEPS)[number];

export const pvcStepTitles: Record<PvcStep, string> = {
  details: 'Details',
  samples: 'Samples',
  speakers: 'Speakers',
  verify: 'Verification',
  train: 'Training',
};

/** Where a professional clone stands, for its badge in the voice lab. */
export type PvcStage = 'draft' | 'verifying' | 'training' | 'ready' | 'failed';

export const pvcStageLabels: Record<PvcStage, string> = {
  draft: 'Draft',
  verifying: 'Verifying',
  training: 'Training',
  ready: 'Ready',
  failed: 'Training failed',
};

/** The training states the server reports (`fine_tuning.state`), the most telling first. */
const TRAINING_STATES = ['fine_tuning', 'queued', 'failed', 'fine_tuned', 'not_started'] as const;
export type TrainingState = (typeof TRAINING_STATES)[number];

/**
 * The voice's training state. The server reports one state under two model ids (the one trained for and
 * the Parla model it stands for); a state it may add later reads as not started.
 */
export function trainingState(voice: Pick<VoiceResponse, 'fine_tuning'>): TrainingState {
  const states = Object.values(voice.fine_tuning?.state ?? {});
  return TRAINING_STATES.find((state) => states.includes(state)) ?? 'not_started';
}

/** The training's progress, 0–1 (0 before it starts). */
export function trainingProgress(voice: Pick<VoiceResponse, 'fine_tuning'>): number {
  const values = Object.values(voice.fine_tuning?.progress ?? {});
  const progress = values.length > 0 ? Math.max(...values) : 0;
  return Math.min(1, Math.max(0, progress));
}

/** Seconds of audio in a voice's samples, as uploaded. */
export function samplesSeconds(voice: Pick<VoiceResponse, 'samples'>): number {
  return (voice.samples ?? []).reduce((sum, sample) => sum + sample.duration_secs, 0);
}

/**
 * Where a professional clone stands: training (queued or running), ready (trained), failed (training
 * failed), verifying (enough audio, waiting for the owner's reading), or draft (before that, and once
 * verified until the training starts).
 */
export function pvcStage(
  voice: Pick<VoiceResponse, 'fine_tuning' | 'samples' | 'voice_verification'>,
): PvcStage {
  const state = trainingState(voice);
  if (state === 'queued' || state === 'fine_tuning') return 'training';
  if (state === 'fine_tuned') return 'ready';
  if (state === 'failed') return 'failed';
  if (!voice.voice_verification.is_verified && samplesSeconds(voice) >= PVC_MIN_TRAINING_SECONDS)
    return 'verifying';
  return 'draft';
}

/** What the voice lab says under a professional clone, by its stage. */
export function describePvcStage(
  voice: Pick<VoiceResponse, 'fine_tuning' | 'samples' | 'voice_verification'>,
): string {
  const stage = pvcStage(voice);
  switch (stage) {
    case 'training':
      return `Training · ${Math.round(trainingProgress(voice) * 100)} %`;
    case 'ready':
      return 'Trained: it speaks in every voice picker.';
    case 'failed':
      return 'The training failed. Check the samples and train it again.';
    case 'verifying':
      return 'Read a sentence aloud to show the voice is yours, then train it.';
    default:
      return voice.voice_verification.is_verified
        ? 'Verified: start the training.'
        : `Add at least ${PVC_MIN_TRAINING_SECONDS} seconds of the voice.`;
  }
}

/**
 * Seconds of the voice the training would use: for a sample whose speakers were separated and some
 * selected, the selected speakers' speech; otherwise the whole sample (as the server counts, pvc-training).
 */
export function selectedSeconds(
  samples: NonNullable<VoiceResponse['samples']>,
  separations: Readonly<Record<string, SpeakerSeparation | undefined>>,
): number {
  return samples.reduce((sum, sample) => {
    const separation = separations[sample.sample_id];
    const selected = separation?.status === 'completed' ? (separation.selected_speaker_ids ?? []) : [];
    if (selected.length === 0) return sum + sample.duration_secs;
    return sum + selected.reduce((n, id) => n + (separation?.speakers?.[id]?.duration_secs ?? 0), 0);
  }, 0);
}

/**
 * The step to open a professional clone on, so the flow resumes where it stopped: samples until there is
 * enough audio, speakers while a separation runs, verification until verified, then training.
 */
export function resumeStep(
  voice: Pick<VoiceResponse, 'fine_tuning' | 'samples' | 'voice_verification'>,
  separations: Readonly<Record<string, SpeakerSeparation | undefined>>,
): PvcStep {
  if (voice.voice_verification.is_verified || trainingState(voice) !== 'not_started') return 'train';
  if (selectedSeconds(voice.samples ?? [], separations) < PVC_MIN_TRAINING_SECONDS) return 'samples';
  if (Object.values(separations).some((s) => s?.status === 'pending')) return 'speakers';
  return 'verify';
}

/** What the plan allows: professional cloning at all, and a slot left for another clone. */
export type PvcPlanCheck =
  | { allowed: true }
  | { allowed: false; reason: 'not_in_plan' | 'no_slot_left'; message: string };

/**
 * Whether the plan lets the user create a professional clone (accounts §9: Creator 1, Business 3, free
 * none; the limit includes extra slots).
 */
export function checkPvcPlan(
  subscription: Pick<
    SubscriptionResponse,
    'can_use_professional_voice_cloning' | 'professional_voice_limit' | 'professional_voice_slots_used'
  >,
): PvcPlanCheck {
  if (!subscription.can_use_professional_voice_cloning)
    return {
      allowed: false,
      reason: 'not_in_plan',
      message: 'Professional voice cloning starts with the Creator plan.',
    };
  if (subscription.professional_voice_slots_used >= subscription.professional_voice_limit) {
    const limit = subscription.professional_voice_limit;
    return {
      allowed: false,
      reason: 'no_slot_left',
      message: `Your plan allows ${limit} professional voice clone${limit === 1 ? '' : 's'}, and ${limit === 1 ? 'it is' : 'all are'} in use. Delete one or upgrade to add another.`,
    };
  }
  return { allowed: true };
}

/** The languages a professional clone may speak: those of the premade voices (what the server accepts). */
export function pvcLanguages(): Array<{ code: string; name: string }> {
  const codes = [...new Set(PREMADE_VOICES.map((voice) => voice.language))];
  const names = new Intl.DisplayNames(['en'], { type: 'language' });
  return codes
    .map((code) => ({
      code,
      name: ESPEAK_LANGUAGES.find((l) => l.language_id === code)?.name ?? names.of(code) ?? code,
    }))
    .sort((a, b) => (a.code === 'en' ? -1 : b.code === 'en' ? 1 : a.name.localeCompare(b.name)));
}

export type PvcDetailsErrors = Partial<Record<'name' | 'language' | 'description' | 'consent', string>>;

/** Why the details cannot be sent, by field (empty when they can): the contract's bounds and the consent. */
export function checkPvcDetails(values: {
  name: string;
  language: string;
  description: string;
  consent: boolean;
}): PvcDetailsErrors {
  const errors: PvcDetailsErrors = {};
  if (values.name.trim() === '') errors.name = 'Give the voice a name.';
  else if (!CreatePvcBody.shape.name.safeParse(values.name).success)
    errors.name = 'Keep the name to 100 characters.';
  if (!CreatePvcBody.shape.language.safeParse(values.language).success)
    errors.language = 'Choose the language the voice speaks.';
  if (!CreatePvcBody.shape.description.safeParse(values.description).success)
    errors.description = `Keep the description to ${VOICE_DESCRIPTION_MAX} characters.`;
  if (!values.consent)
    errors.consent = 'Confirm that this is your own voice, or that you have the consent of its speaker.';
  return errors;
}

const sampleMegabytes = PVC_SAMPLE_MAX_BYTES / 1024 / 1024;

/** Why a file cannot be a professional sample, or null: an audio type, not empty, at most 50 MB. */
export function checkPvcSampleFile(file: { name: string; type: string; size: number }): string | null {
  if (!isAudioUpload(file)) return `${file.name} is not an audio file. Choose ${AUDIO_UPLOAD_TYPES_TEXT}.`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > PVC_SAMPLE_MAX_BYTES)
    return `${file.name} is ${formatMegabytes(file.size)}; a sample may be at most ${sampleMegabytes} MB.`;
  return null;
}

/** The chosen files split into those that can go (at most PVC_MAX_FILES a request) and why others cannot. */
export function pickPvcSampleFiles<F extends { name: string; type: string; size: number }>(
  chosen: readonly F[],
): { files: F[]; problems: string[] } {
  const files: F[] = [];
  const problems: string[] = [];
  for (const file of chosen) {
    const problem = checkPvcSampleFile(file);
    if (problem) problems.push(problem);
    else if (files.length >= PVC_MAX_FILES)
      problems.push(`At most ${PVC_MAX_FILES} files can be sent at once; ${file.name} was left out.`);
    else files.push(file);
  }
  return { files, problems };
}

/** A length in seconds as people read it: `42 s`, `3 min 05 s`, `1 h 02 min`. */
export function formatSeconds(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} min ${String(whole % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** The voice page of a professional clone (`new` while it is being created). */
export function pvcPath(voiceId?: string): string {
  return voiceId
    ? `/app/voice-lab/professional/${encodeURIComponent(voiceId)}`
    : '/app/voice-lab/professional';
}
