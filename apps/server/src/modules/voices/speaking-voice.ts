import { analyzeVoice, clamp, formantScale, type VoiceProfile } from '@parla/audio';
import {
  type EngineVoice,
  findPremadeVoice,
  PREMADE_VOICES,
  type PremadeVoice,
  type VoiceSettings,
  voiceNeedsVerification,
} from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { MAX_RATIO, MIN_RATIO, type VoiceTransform } from '../../platform/media/voice-transform';
import type { TtsProvider } from '../../providers/tts/tts-provider';
import { getUser } from '../users';
import type { ResourceCaller } from '../workspaces';
import { LIBRARY_BASE_VOICES } from './built-in-voices.catalog';
import { cloneBlend } from './kokoro-blends';
import { findOwnVoice } from './voices.store';
import type { VoiceRow } from './voices.tables';

export type VoiceCategory = 'premade' | 'cloned' | 'generated' | 'professional';

/**
 * A voice as speech needs it: a premade voice, or an own voice dressed as its premade base (the base's
 * engine renditions, the own voice's id, name and labels) with the profile its speech is moved towards.
 */
export interface SpeakingVoice extends PremadeVoice {
  category: VoiceCategory;
  /** What the speech should sound like; undefined for a premade voice (its engines' own sound). */
  profile: VoiceProfile | undefined;
  /** The voice's own settings (defaults when null). */
  settings: VoiceSettings | null;
  liveModerationEnabled: boolean;
  /** What its preview says (`{name}` is its name), when the voice has a sentence of its own. */
  previewText?: string;
}

/** The public API's answer for an unknown voice: 404 `voice_not_found`. */
export function voiceNotFound(voiceId: string): AppError {
  return new AppError('voice_not_found', `A voice with the voice_id ${voiceId} was not found.`);
}

/** A premade voice as a SpeakingVoice. */
export function premadeSpeaking(voice: PremadeVoice): SpeakingVoice {
  return { ...voice, category: 'premade', profile: undefined, settings: null, liveModerationEnabled: false };
}

/**
 * Why an own voice cannot speak, or undefined: history/voices §5 "Voices with sharing status
 * copied_disabled are not usable", a voice banned by moderation, and a professional clone not trained.
 */
export function unusableReason(
  row: Pick<VoiceRow, 'sharingStatus' | 'safetyControl' | 'profile'>,
): string | undefined {
  if (row.sharingStatus === 'copied_disabled')
    return 'This voice is no longer available: its owner has stopped sharing it.';
  if (row.safetyControl === 'BAN') return 'This voice has been blocked by moderation and cannot be used.';
  if (!row.profile) return 'This voice has not been trained yet.';
  return undefined;
}

/** The voice an own voice is built on: a premade voice, or a base of the library's built-in voices. */
export function findBaseVoice(voiceId: string): PremadeVoice | undefined {
  return findPremadeVoice(voiceId) ?? LIBRARY_BASE_VOICES.find((v) => v.voice_id === voiceId);
}

/** An own voice row as a SpeakingVoice, or undefined when its base voice is unknown. */
export function ownSpeaking(row: VoiceRow): SpeakingVoice | undefined {
  const found = findBaseVoice(row.baseVoiceId);
  if (!found) return undefined;
  // An own voice keeps the engine it was made with (issue 27 item 5). One designed or cloned on Kokoro
  // speaks its own blend there (its `kokoroVoice`), moved to its profile from the blend's measured sound;
  // one made before has none: the neural renditions its base has since gained are not its own, and the
  // public ids that speak neural speak it through their classic fallback.
  const { kokoro: _kokoro, piper: _piper, ...base } = found;
  return {
    ...base,
    ...(row.kokoroVoice ? { kokoro: { engine: 'kokoro' as const, voice: row.kokoroVoice } } : {}),
    voice_id: row.id,
    name: row.name,
    description: row.description ?? '',
    labels: { ...base.labels, ...row.labels } as PremadeVoice['labels'],
    language: row.language,
    category: row.category,
    profile: row.profile ?? undefined,
    settings: row.settings,
    liveModerationEnabled: row.liveModerationEnabled,
    ...(row.previewText ? { previewText: row.previewText } : {}),
  };
}

/**
 * The voice a speech request names: premade, or one of the caller's workspace's own voices (404
 * `voice_not_found` otherwise, another workspace's included), refused with 400 when it cannot speak.
 */
export async function resolveSpeakingVoice(
  db: Db,
  caller: ResourceCaller,
  voiceId: string,
): Promise<SpeakingVoice> {
  const premade = findPremadeVoice(voiceId);
  if (premade) return premadeSpeaking(premade);
  const row = await findOwnVoice(db, caller, voiceId);
  const voice = row && ownSpeaking(row);
  if (!row || !voice) throw voiceNotFound(voiceId);
  const reason = unusableReason(row);
  if (reason) throw new AppError('voice_unusable', reason);
  if (!row.isVerified && (await needsVerification(db, row)))
    throw new AppError(
      'voice_unusable',
      'This voice needs verification before it can be used: its owner must read the captcha aloud.',
    );
  return voice;
}

/** history/voices §5 for an own voice: unverified, and verification required or its owner in probation. */
export async function needsVerification(
  db: Db,
  row: Pick<VoiceRow, 'isVerified' | 'requiresVerification' | 'ownerUserId'>,
): Promise<boolean> {
  if (row.isVerified) return false;
  if (row.requiresVerification) return true;
  if (!row.ownerUserId) return false;
  const owner = await getUser(db, row.ownerUserId);
  return voiceNeedsVerification(row, owner?.isInProbation ?? false);
}

/** What a rendition says to be measured: long enough for a stable median pitch and formants. */
export const REFERENCE_TEXT =
  'The rainbow is a division of white light into many beautiful colours. These take the shape of a long round arch, with its path high above.';

const renditionProfiles = new Map<string, Promise<VoiceProfile>>();

/**
 * How an engine rendition sounds on its own: the reference text spoken with it, analysed once per process
 * and kept in memory. A failure is tried again on the next call.
 */
export function renditionProfile(engines: TtsProvider, rendition: EngineVoice): Promise<VoiceProfile> {
  const key = JSON.stringify([rendition.engine, rendition.voice, rendition.rate ?? 1, rendition.pitch ?? 1]);
  const known = renditionProfiles.get(key);
  if (known) return known;
  const made = (async () => {
    if (rendition.engine !== 'kokoro') {
      const speech = await engines.synthesize({ ...rendition, text: REFERENCE_TEXT });
      return analyzeVoice({ sampleRate: speech.sampleRate, samples: speech.samples });
    }
    // Kokoro (a designed voice's or a clone's blend, measured when it is made) reads it a sentence at a
    // time, as speech reaches it: each call stays well inside the engines' time bound on a busy machine.
    const sentences = REFERENCE_TEXT.match(/[^.]+\./g) ?? [REFERENCE_TEXT];
    const spoken = [];
    for (const text of sentences) spoken.push(await engines.synthesize({ ...rendition, text: text.trim() }));
    const samples = new Int16Array(spoken.reduce((sum, s) => sum + s.samples.length, 0));
    let at = 0;
    for (const s of spoken) {
      samples.set(s.samples, at);
      at += s.samples.length;
    }
    return analyzeVoice({ sampleRate: spoken[0]?.sampleRate ?? 24_000, samples });
  })();
  renditionProfiles.set(key, made);
  made.catch(() => {
    if (renditionProfiles.get(key) === made) renditionProfiles.delete(key);
  });
  return made;
}

/** The shift that moves `from` towards `to`: median pitch ratio and formant scale, tempo kept. */
export function timbreShift(from: VoiceProfile, to: VoiceProfile): VoiceTransform {
  const pitchRatio =
    from.pitch.medianHz && to.pitch.medianHz
      ? clamp(to.pitch.medianHz / from.pitch.medianHz, MIN_RATIO, MAX_RATIO)
      : 1;
  return { pitchRatio, formantRatio: formantScale(from, to), tempoRatio: 1 };
}

/**
 * How far similarity_boost moves an own voice from its base voice to its profile: 1 − (1 − s)², a share
 * of the shift in log frequency. 0 keeps the base voice, 1 goes all the way, and the default 0.75 goes
 * 94 % of the way (issue 18 item 3).
 */
export function similarityShare(similarity: number): number {
  const s = clamp(similarity, 0, 1);
  return 1 - (1 - s) ** 2;
}

/** A timbre shift taken `share` of the way (ratios as powers: half of ×1.44 is ×1.2). */
export function partialShift(shift: VoiceTransform, share: number): VoiceTransform {
  return {
    ...shift,
    pitchRatio: shift.pitchRatio ** share,
    formantRatio: shift.formantRatio ** share,
  };
}

/**
 * The pitch and formant shift an own voice's speech gets on top of `rendition` (its base's rendition for
 * the request's model), `similarity` (voice settings' similarity_boost, default all the way) of the way
 * to its profile; undefined for a premade voice or an engine outside this machine.
 */
export async function timbreFor(
  engines: TtsProvider,
  voice: SpeakingVoice,
  rendition: EngineVoice,
  similarity = 1,
): Promise<VoiceTransform | undefined> {
  if (!voice.profile || rendition.engine === 'external') return undefined;
  const shift = timbreShift(await renditionProfile(engines, rendition), voice.profile);
  return partialShift(shift, similarityShare(similarity));
}

/** Median pitch above which a voice of unstated gender is built on a woman's voice. */
const FEMALE_FROM_HZ = 165;

/** The gender an own voice is built as: its gender label when given, else by its median pitch. */
export function cloneGender(medianHz: number | null, genderLabel?: string | null): 'female' | 'male' {
  if (genderLabel === 'female' || genderLabel === 'male') return genderLabel;
  return (medianHz ?? 0) >= FEMALE_FROM_HZ ? 'female' : 'male';
}

/**
 * The Kokoro blend an instant clone speaks with on the neural model (issue 27 item 5): the blend of its
 * language's Kokoro voices of its gender nearest its measured pitch and formants (kokoro-blends.ts
 * cloneBlend), or null where Kokoro has no voice for its language (it stays on its classic base).
 */
export function cloneKokoroVoice(
  profile: VoiceProfile,
  language: string,
  genderLabel?: string | null,
): string | null {
  const { medianHz } = profile.pitch;
  if (medianHz === null) return null;
  const gender = cloneGender(medianHz, genderLabel);
  return (
    cloneBlend({ medianHz, formantsHz: profile.spectralEnvelope.formantsHz }, language, gender)?.blend ?? null
  );
}

/**
 * The premade voice an own voice is built on: the first of its language (else English) of its gender —
 * the gender label when given, else by median pitch. Always the same voice for a language and gender, so
 * what a clone sounds like comes from its profile (the pitch and formant shift), not from which premade
 * voice happened to be closest.
 */
export function baseVoiceFor(
  medianHz: number | null,
  language: string,
  genderLabel?: string | null,
): PremadeVoice {
  const gender = cloneGender(medianHz, genderLabel);
  const ofLanguage = PREMADE_VOICES.filter((v) => v.language === language);
  const pool = ofLanguage.length > 0 ? ofLanguage : PREMADE_VOICES.filter((v) => v.language === 'en');
  return (pool.find((v) => v.labels.gender === gender) ?? pool[0]) as PremadeVoice;
}

/** Why an own voice cannot be shared, copied or remixed, or undefined: unusable, or needing verification. */
export async function reuseProblem(db: Db, row: VoiceRow): Promise<string | undefined> {
  const reason = unusableReason(row);
  if (reason) return reason;
  if (await needsVerification(db, row))
    return 'This voice needs verification first: its owner must read the captcha aloud.';
  return undefined;
}
