import {
  DUBBING_LANGUAGES,
  type DubbingLanguageEntry,
  findModel,
  findSpokenLanguage,
  PREMADE_VOICES,
  speakingRendition,
} from '@parla/contracts';
import type { SttModelKind } from '../../providers/stt/stt-provider';
import { dubbingLanguageCapabilities } from '../../providers/translation/translation-provider';
import { neuralAvailability } from '../voices';
import type { DubbingDeps } from './dubbing.deps';

/*
 * What this installation can dub (issue 29: "the language list shows the spec's 29 dubbing languages and
 * marks which ones this installation can do now"): a source language needs a recogniser that hears it, a
 * target a translation route from the source and a voice that speaks it.
 */

/** The model dubs speak with: the neural default, which speaks through eSpeak NG where Kokoro does not. */
export const DUBBING_TTS_MODEL = 'parla_neural_v1';

const nameOf = (code: string) => DUBBING_LANGUAGES.find((l) => l.code === code)?.name ?? code;

/** The recogniser that hears `language` here (auto: the multilingual one if present, else English). */
export function sourceModelFor(
  deps: Pick<DubbingDeps, 'stt'>,
  language: string | undefined,
): SttModelKind | undefined {
  const kinds: SttModelKind[] = ['fast', 'multilingual', 'external'];
  const hears = (kind: SttModelKind, code: string) => {
    try {
      return deps.stt.languages(kind).includes(code);
    } catch {
      return false;
    }
  };
  if (!language) return hears('multilingual', 'es') ? 'multilingual' : 'fast';
  if (language === 'en') return 'fast';
  return kinds.find((kind) => hears(kind, language));
}

/** How a voice speaks `language` here: a neural voice (Kokoro), a classic one (eSpeak NG), or none. */
export function voicesFor(
  deps: Pick<DubbingDeps, 'models'>,
  language: string,
): 'neural' | 'classic' | 'none' {
  const model = findModel(DUBBING_TTS_MODEL);
  const spoken = findSpokenLanguage(language);
  if (!model || !spoken) return 'none';
  const available = neuralAvailability({ store: deps.models });
  const voice = PREMADE_VOICES.find((v) => v.language === spoken.language_id) ?? PREMADE_VOICES[0];
  if (!voice) return 'none';
  const rendition = speakingRendition(model, voice, spoken.language_id, available);
  if (!rendition) return 'none';
  return rendition.engine === 'kokoro' || rendition.engine === 'piper' ? 'neural' : 'classic';
}

/** Why a dub from `source` (undefined: detected later) into `target` cannot be made here, or undefined. */
export function targetProblem(
  deps: Pick<DubbingDeps, 'stt' | 'translation' | 'models'>,
  source: string | undefined,
  target: string,
): string | undefined {
  if (!DUBBING_LANGUAGES.some((l) => l.code === target))
    return `Dubbing into "${target}" is not offered: choose one of the 29 dubbing languages.`;
  if (source && !sourceModelFor(deps, source))
    return `Parla cannot transcribe ${nameOf(source)} on this installation: no recogniser here hears it.`;
  const from = source ?? 'en';
  if (from !== target && !deps.translation.route(from, target))
    return `Parla cannot translate from ${nameOf(from)} to ${nameOf(target)} on this installation: no offline translation exists for this pair and no translation server is configured.`;
  if (voicesFor(deps, target) === 'none')
    return `Parla has no voice that speaks ${nameOf(target)} on this installation.`;
  return undefined;
}

/** `GET /v1/dubbing/languages`: the 29 languages, each with what can be done with it here. */
export function dubbingLanguages(deps: Pick<DubbingDeps, 'stt' | 'translation' | 'models'>): {
  languages: DubbingLanguageEntry[];
} {
  const capabilities = dubbingLanguageCapabilities(deps.translation, {
    transcribe: (code) => sourceModelFor(deps, code) !== undefined,
    speak: (code) => voicesFor(deps, code) !== 'none',
  });
  return { languages: capabilities.map((c) => ({ ...c, voices: voicesFor(deps, c.code) })) };
}
