import {
  AddVoiceFields,
  IVC_MAX_FILES,
  type LibraryVoice,
  VOICE_DESCRIPTION_MAX,
  VOICE_NAME_MAX,
  VOICE_SAMPLE_MAX_BYTES,
  type VoiceResponse,
} from '@parla/contracts';
import { z } from 'zod';
import { AUDIO_UPLOAD_TYPES_TEXT, formatMegabytes, isAudioUpload } from '../../lib/audio-upload-types';
import { humanizeLabel } from './voice-labels';

/** How long typing must pause before a voice search goes to the server. */
export const VOICE_SEARCH_DEBOUNCE_MS = 300;

/**
 * A voice's `sharing` as the server fills it (history/voices §3). The contract leaves the object open, so
 * the fields the pages read are checked here; anything else in it is ignored.
 */
const VoiceSharing = z.object({
  status: z.enum(['enabled', 'disabled', 'copied', 'copied_disabled']).catch('disabled'),
  public_owner_id: z.string().nullish(),
  original_voice_id: z.string().nullish(),
  live_moderation_enabled: z.boolean().nullish(),
  free_users_allowed: z.boolean().nullish(),
  cloned_by_count: z.number().nullish(),
});
export type VoiceSharing = z.infer<typeof VoiceSharing>;

/** The sharing state of a voice, or null when it has never been shared nor added from the library. */
export function readVoiceSharing(voice: Pick<VoiceResponse, 'sharing'>): VoiceSharing | null {
  const parsed = VoiceSharing.safeParse(voice.sharing);
  return parsed.success ? parsed.data : null;
}

/** Whether a voice was added from the library (a copy of someone's shared voice). */
export function isLibraryCopy(voice: Pick<VoiceResponse, 'sharing'>): boolean {
  const status = readVoiceSharing(voice)?.status;
  return status === 'copied' || status === 'copied_disabled';
}

/**
 * Whether another member of the workspace shared this voice with the caller (history/voices §3 voice_type
 * `workspace`): not theirs, not a library copy, not a premade voice.
 */
export function isSharedWithMe(voice: Pick<VoiceResponse, 'is_owner' | 'sharing' | 'category'>): boolean {
  return !voice.is_owner && !isLibraryCopy(voice) && voice.category !== 'premade';
}

/** history/voices §5: "Voices with sharing status copied_disabled are not usable." */
export function isVoiceUnavailable(voice: Pick<VoiceResponse, 'sharing'>): boolean {
  return readVoiceSharing(voice)?.status === 'copied_disabled';
}

/** What kind of own voice it is, for its badge. */
export type OwnVoiceKind = 'cloned' | 'generated' | 'professional' | 'library' | 'premade';

export function getOwnVoiceKind(voice: Pick<VoiceResponse, 'sharing' | 'category'>): OwnVoiceKind {
  if (isLibraryCopy(voice)) return 'library';
  if (voice.category === 'cloned' || voice.category === 'generated' || voice.category === 'professional')
    return voice.category;
  return 'premade';
}

export const ownVoiceKindLabels: Record<OwnVoiceKind, string> = {
  cloned: 'Cloned',
  generated: 'Designed',
  professional: 'Professional',
  library: 'From the library',
  premade: 'Default',
};

/** Whether an own voice may be offered for sharing: not a library copy, not blocked by moderation. */
export function canShareVoice(
  voice: Pick<VoiceResponse, 'sharing' | 'safety_control' | 'voice_verification'>,
): boolean {
  // The server refuses to share a voice that still needs its owner's verification.
  const unverified = voice.voice_verification.requires_verification && !voice.voice_verification.is_verified;
  return !isLibraryCopy(voice) && voice.safety_control !== 'BAN' && !unverified;
}

/** The in-app page of a shared voice (history/voices §2 "/app/voice-lab/share/{a}/{b}"). */
export function sharedVoicePath(publicOwnerId: string, voiceId: string): string {
  return `/app/voice-lab/share/${encodeURIComponent(publicOwnerId)}/${encodeURIComponent(voiceId)}`;
}

const sampleMegabytes = VOICE_SAMPLE_MAX_BYTES / 1024 / 1024;

/**
 * Why a file cannot be a voice sample, or null: one of the §5 audio types, not empty, at most the API's
 * 11 MB a sample. The server checks the content again and refuses a file holding no voiced speech.
 */
export function checkSampleFile(file: { name: string; type: string; size: number }): string | null {
  if (!isAudioUpload(file)) return `${file.name} is not an audio file. Choose ${AUDIO_UPLOAD_TYPES_TEXT}.`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > VOICE_SAMPLE_MAX_BYTES)
    return `${file.name} is ${formatMegabytes(file.size)}; a sample may be at most ${sampleMegabytes} MB.`;
  return null;
}

/**
 * Adds chosen files to the ones already chosen: refused files are named in `problems`, a file chosen twice
 * is kept once, and no more than `max` (the API's 25 samples a request) are kept.
 */
export function addSampleFiles<F extends { name: string; type: string; size: number; lastModified: number }>(
  current: readonly F[],
  incoming: readonly F[],
  max: number = IVC_MAX_FILES,
): { files: F[]; problems: string[] } {
  const files = [...current];
  const problems: string[] = [];
  const key = (file: F) => `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
  const have = new Set(files.map(key));
  for (const file of incoming) {
    const problem = checkSampleFile(file);
    if (problem) {
      problems.push(problem);
      continue;
    }
    if (have.has(key(file))) continue;
    if (files.length >= max) {
      problems.push(`At most ${max} samples can be sent at once; ${file.name} was left out.`);
      continue;
    }
    have.add(key(file));
    files.push(file);
  }
  return { files, problems };
}

/** Error codes (history/voices §7, accounts §8) after which a better plan is the way on. */
const planErrorCodes: ReadonlySet<string> = new Set([
  'voice_cloning_not_allowed',
  'voice_limit_reached',
  'voice_add_edit_limit_reached',
]);

/** Whether an API error code is about the plan's voice limits (so the page offers the plans). */
export function isPlanLimitError(code: string | undefined): boolean {
  return code !== undefined && planErrorCodes.has(code);
}

/** A library voice's traits in a steady order, as people read them. */
export function describeLibraryVoice(
  voice: Pick<LibraryVoice, 'gender' | 'age' | 'accent' | 'use_case'>,
): string[] {
  return [voice.gender, voice.age, voice.accent, voice.use_case]
    .filter((value) => value.trim() !== '')
    .map(humanizeLabel);
}

/** What the instant clone form holds when it is sent. */
export interface CloneFormValues {
  files: readonly unknown[];
  name: string;
  description: string;
  consent: boolean;
}

export type CloneFormErrors = Partial<Record<'files' | 'name' | 'description' | 'consent', string>>;

/**
 * Why the instant clone form cannot be sent, by field (empty when it can): at least one sample, a name
 * and a description within the contract's bounds (AddVoiceFields), and the rights-and-consent box ticked.
 */
export function checkCloneForm(values: CloneFormValues): CloneFormErrors {
  const errors: CloneFormErrors = {};
  if (values.files.length === 0) errors.files = 'Add at least one audio sample of the voice.';
  const name = AddVoiceFields.shape.name.safeParse(values.name);
  if (!name.success)
    errors.name =
      values.name.trim() === ''
        ? (name.error.issues[0]?.message ?? 'Give the voice a name.')
        : `Keep the name to ${VOICE_NAME_MAX} characters.`;
  if (!AddVoiceFields.shape.description.safeParse(values.description).success)
    errors.description = `Keep the description to ${VOICE_DESCRIPTION_MAX} characters.`;
  if (!values.consent)
    errors.consent = 'Confirm that you have the rights and the consent to clone this voice.';
  return errors;
}
