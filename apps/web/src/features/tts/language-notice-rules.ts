import type { ModelResponse, VoiceResponse } from '@parla/contracts';
import type { DetectedLanguage } from '@parla/contracts/language-detection';

/** A language code's primary subtag, lower-cased ("de-AT" → "de"). */
const primary = (code: string) => code.trim().toLowerCase().split(/[-_]/)[0] ?? '';

/**
 * What the language notice says about a text and the chosen voice (issue 18 item 4): nothing when the
 * language is unknown (short or ambiguous text), the voice has no language, or the two agree.
 */
export type LanguageNotice =
  | { kind: 'none' }
  /** Written in a language Parla speaks, not the voice's. */
  | { kind: 'mismatch'; language: string; voiceLanguage: string; modelSpeaksIt: boolean }
  /** Written in a language no engine here speaks. */
  | { kind: 'unspoken'; language: string; voiceLanguage: string };

export function languageNotice(
  detected: DetectedLanguage | null,
  voice: Pick<VoiceResponse, 'labels'> | undefined,
  model: Pick<ModelResponse, 'languages'> | undefined,
): LanguageNotice {
  const voiceLanguage = voice?.labels.language ? primary(voice.labels.language) : '';
  if (!detected?.language || !voiceLanguage || detected.language === voiceLanguage) return { kind: 'none' };
  if (!detected.spoken) return { kind: 'unspoken', language: detected.language, voiceLanguage };
  const modelSpeaksIt = model?.languages.some((l) => l.language_id === detected.language) ?? false;
  return { kind: 'mismatch', language: detected.language, voiceLanguage, modelSpeaksIt };
}
