import { analyzeVoice, type VoiceProfile } from '@parla/audio';
import {
  type EngineVoice,
  findModel,
  findSpokenLanguage,
  PREMADE_VOICES,
  type PremadeVoice,
  speakingRendition,
} from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import { AppError } from '../../platform/errors';
import type { VoiceTransform } from '../../platform/media/voice-transform';

import {
  neuralAvailability,
  renditionProfile,
  resolveSpeakingVoice,
  timbreFor,
  timbreShift,
} from '../voices';
import type { DubbingDeps } from './dubbing.deps';
import { DUBBING_TTS_MODEL } from './dubbing.languages';
import type { DubSpeakerRow } from './dubbing.tables';

/*
 * A voice for each speaker in each target language (issue 29: "a voice matched to its speaker — pitch and
 * vocal-tract profile from the speaker's own audio, the way own voices work — unless
 * disable_voice_cloning"). The matched voice is a premade voice of the target language and of the
 * speaker's register, spoken by the neural engine where it speaks the language (else eSpeak NG), then moved
 * to the speaker's measured median pitch and formants, as an instant clone's speech is.
 */

/** Median pitch above which a speaker gets a woman's voice (as own voices decide, speaking-voice.ts). */
const FEMALE_FROM_HZ = 165;

/** What speaks a speaker's segments in a language. */
export interface SpeakerVoice {
  voiceId: string;
  rendition: EngineVoice;
  timbre: VoiceTransform | undefined;
}

/** The speaker's profile from its own segments of the source (mono samples and their spans). */
export function speakerProfile(
  audio: { sampleRate: number; samples: Float32Array },
  spans: { start: number; end: number }[],
): VoiceProfile | null {
  const parts: Float32Array[] = [];
  let total = 0;
  for (const span of spans) {
    const from = Math.max(0, Math.floor(span.start * audio.sampleRate));
    const to = Math.min(audio.samples.length, Math.ceil(span.end * audio.sampleRate));
    if (to > from) {
      parts.push(audio.samples.subarray(from, to));
      total += to - from;
    }
    if (total > audio.sampleRate * 60) break;
  }
  if (total < audio.sampleRate * 0.5) return null;
  const joined = new Float32Array(total);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  try {
    const profile = analyzeVoice({ sampleRate: audio.sampleRate, samples: joined });
    return profile.pitch.medianHz ? profile : null;
  } catch {
    return null;
  }
}

/** The premade voices of a language (English ones where it has none), women's or men's first by register. */
function candidates(language: string, profile: VoiceProfile | null): PremadeVoice[] {
  const spoken = findSpokenLanguage(language)?.language_id ?? 'en';
  const ofLanguage = PREMADE_VOICES.filter((v) => v.language === spoken);
  const pool = ofLanguage.length > 0 ? ofLanguage : PREMADE_VOICES.filter((v) => v.language === 'en');
  const gender = (profile?.pitch.medianHz ?? 0) >= FEMALE_FROM_HZ ? 'female' : 'male';
  // Character voices (a jolly Santa) are for stories, not for someone's own words.
  const plain = pool.filter((v) => v.labels.use_case !== 'characters');
  const usable = plain.length > 0 ? plain : pool;
  const same = usable.filter((v) => v.labels.gender === gender);
  return same.length > 0 ? same : usable;
}

/** The premade voice a speaker is matched to: by register, a different one per speaker where there are several. */
export function matchedVoice(
  language: string,
  speaker: Pick<DubSpeakerRow, 'profile' | 'position'>,
): PremadeVoice {
  const pool = candidates(language, speaker.profile);
  return pool[speaker.position % pool.length] as PremadeVoice;
}

/** The voices nearest a speaker (the editor's similar voices): same language and register first. */
export function similarVoices(language: string, speaker: Pick<DubSpeakerRow, 'profile'>): PremadeVoice[] {
  const spoken = findSpokenLanguage(language)?.language_id ?? 'en';
  const pitch = speaker.profile?.pitch.medianHz ?? 150;
  const register = (v: PremadeVoice) => (v.labels.gender === 'female' ? 210 : 120);
  return [...PREMADE_VOICES]
    .sort(
      (a, b) =>
        Number(b.language === spoken) - Number(a.language === spoken) ||
        Math.abs(register(a) - pitch) - Math.abs(register(b) - pitch),
    )
    .slice(0, 10);
}

/** The classic model a voice falls back to where the neural one has no rendition of it (Kokoro's one French voice is a woman's). */
const CLASSIC_MODEL = 'parla_v1';

/**
 * The rendition that speaks `language` with `voice`: the neural model's where it has one, else the classic
 * model's (eSpeak NG with the voice's own variant), or undefined when neither speaks the language.
 */
function renditionFor(
  deps: Pick<DubbingDeps, 'models'>,
  voice: PremadeVoice,
  language: string,
): EngineVoice | undefined {
  const available = neuralAvailability({ store: deps.models });
  for (const id of [DUBBING_TTS_MODEL, CLASSIC_MODEL]) {
    const model = findModel(id);
    const rendition = model && speakingRendition(model, voice, language, available);
    if (rendition) return rendition;
  }
  return undefined;
}

/** How a speaker speaks `language`: the voice chosen in the editor, else the matched one. */
export async function voiceFor(
  deps: Pick<DubbingDeps, 'db' | 'engines' | 'models'>,
  caller: RequestCaller,
  speaker: DubSpeakerRow,
  language: string,
  disableCloning: boolean,
): Promise<SpeakerVoice> {
  const chosen = speaker.voices[language];
  if (chosen) {
    const voice = await resolveSpeakingVoice(deps.db, caller, chosen);
    const rendition = renditionFor(deps, voice, language);
    if (!rendition)
      throw new AppError('unsupported_language', `The voice ${voice.name} cannot speak ${language}.`);
    const similarity = speaker.tuning.similarity ?? 1;
    return {
      voiceId: chosen,
      rendition,
      timbre: await timbreFor(deps.engines, voice, rendition, similarity),
    };
  }
  const premade = matchedVoice(language, speaker);
  const rendition = renditionFor(deps, premade, language);
  if (!rendition) throw new AppError('unsupported_language', `No voice here speaks ${language}.`);
  const timbre =
    disableCloning || !speaker.profile
      ? undefined
      : timbreShift(await renditionProfile(deps.engines, rendition), speaker.profile);
  return { voiceId: premade.voice_id, rendition, timbre };
}
