/**
 * From text to the phoneme ids the neural models read (issue 27 items 2–3): eSpeak-NG's IPA (the same
 * WebAssembly module the eSpeak voices speak from, `eSpeakPhonemes`), written the way each model was
 * trained, then looked up in the model's own vocabulary. Pure functions: the engines call eSpeak.
 */
import { ipaPhones } from '../phoneme-alphabets';
import type { PhonemeSpan } from '../tts-provider';

/**
 * The punctuation the models hear (Kokoro's vocabulary has `;:,.!?—…"()“”`; Piper's its own): the text is
 * cut around it, the words between are phonemized, and the marks are put back, as kokoro-js does
 * (kokoro-js@1.2.1 `dist/kokoro.js`, its phonemize()) — eSpeak's phonemes would drop them.
 */
const PUNCTUATION = /(\s*[;:,.!?¡¿—…"«»“”(){}[\]]+\s*)+/gu;

/** A text cut into its words and its punctuation, in order. */
export function splitPunctuation(text: string): { text: string; punctuation: boolean }[] {
  const parts: { text: string; punctuation: boolean }[] = [];
  let at = 0;
  for (const match of text.matchAll(PUNCTUATION)) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index), punctuation: false });
    if (match[0].length > 0) parts.push({ text: match[0], punctuation: true });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), punctuation: false });
  return parts;
}

/** A punctuation run as the models read it: its marks and spaces as written, a space for each run of them. */
export function punctuationPhonemes(run: string): string {
  return run.replace(/\s+/g, ' ');
}

/**
 * The phoneme items of eSpeak's `_`-joined IPA, word by word (` | ` clause marks are word breaks), without
 * its language-switch marks (`(en)`, `(ja)`: misaki's remove-flags).
 */
export function eSpeakWords(ipa: string): string[][] {
  return ipa
    .replace(/\([a-z]{2,3}(-[a-z]+)?\)/g, '')
    .split(/[\s|]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.split('_').filter((item) => item.length > 0));
}

/**
 * The phonemes that eSpeak writes as two letters and misaki (Kokoro's own phonemizer) as one: misaki
 * 0.9.x `espeak.py`, whose tables turn eSpeak's tied phonemes into Kokoro's inventory. eSpeak's `_`
 * separators say which letters belong to one phoneme, as its tie marks do for misaki.
 */
const ENGLISH_TIED: Record<string, string> = {
  aɪ: 'I',
  aʊ: 'W',
  dʒ: 'ʤ',
  eɪ: 'A',
  tʃ: 'ʧ',
  ɔɪ: 'Y',
  əl: 'ᵊl',
};
const AMERICAN_TIED: Record<string, string> = { ...ENGLISH_TIED, oʊ: 'O' };
const BRITISH_TIED: Record<string, string> = { ...ENGLISH_TIED, əʊ: 'Q', eə: 'ɛː' };
/** misaki's EspeakG2P: the languages other than English (and Japanese and Chinese) read by eSpeak. */
const OTHER_TIED: Record<string, string> = {
  aɪ: 'I',
  aʊ: 'W',
  dz: 'ʣ',
  dʒ: 'ʤ',
  eɪ: 'A',
  oʊ: 'O',
  əʊ: 'Q',
  ss: 'S',
  ts: 'ʦ',
  tʃ: 'ʧ',
  ɔɪ: 'Y',
};

/** One phoneme item with its tied letters merged (its stress mark and length mark kept). */
function mergeTied(item: string, tied: Record<string, string>): string {
  const match = /^([ˈˌ]*)(.*?)(ː?)$/u.exec(item);
  const [, stress = '', core = item, length = ''] = match ?? [];
  const merged = tied[core];
  return merged === undefined ? item : `${stress}${merged}${length}`;
}

/** misaki's EspeakFallback rewrites of English eSpeak phonemes, longest first. */
const ENGLISH_REWRITES: [RegExp, string][] = [
  [/ʔˌn\u0329|ʔn\u0329|ʔn/gu, 'tn'],
  [/ʔ/gu, 't'],
  [/ʲo/gu, 'jo'],
  [/ʲə/gu, 'jə'],
  [/ʲ/gu, ''],
  [/e/gu, 'A'],
  [/ɚ/gu, 'əɹ'],
  [/r/gu, 'ɹ'],
  [/[xç]/gu, 'k'],
  [/ɐ/gu, 'ə'],
  [/ɬ/gu, 'l'],
  [/\u0303/gu, ''],
  [/(\S)\u0329/gu, 'ᵊ$1'],
  [/\u0329/gu, ''],
  // eSpeak's linking r after ɚ ("weather is": ð_ɚ_ɹ) doubled once ɚ became əɹ.
  [/ɹɹ/gu, 'ɹ'],
];
const AMERICAN_REWRITES: [RegExp, string][] = [
  [/ɜːɹ|ɜː/gu, 'ɜɹ'],
  [/ɪə/gu, 'iə'],
  [/ː/gu, ''],
  [/o/gu, 'ɔ'],
];
const BRITISH_REWRITES: [RegExp, string][] = [[/iə/gu, 'ɪə']];

function rewrite(text: string, rules: readonly [RegExp, string][]): string {
  return rules.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/**
 * eSpeak's IPA for one stretch of words (no punctuation), written as Kokoro-82M was trained to read it:
 * misaki's espeak tables (tied phonemes as one symbol; for English its fallback's rewrites, American
 * without length marks; elsewhere eSpeak's own symbols with its `-` marks dropped).
 */
export function kokoroPhonemes(ipa: string, espeakVoice: string): string {
  const english = espeakVoice === 'en' || espeakVoice.startsWith('en-');
  const british = english && espeakVoice !== 'en-us';
  const tied = !english ? OTHER_TIED : british ? BRITISH_TIED : AMERICAN_TIED;
  const words = eSpeakWords(ipa).map((items) => items.map((item) => mergeTied(item, tied)).join(''));
  const joined = words.join(' ');
  // eSpeak's Japanese writes lowered and central vowels (o̞, ä) that Kokoro's vocabulary has plain.
  if (!english) return joined.replace(/-|\u031E/g, '').replace(/ä/g, 'a');
  const common = rewrite(joined, ENGLISH_REWRITES);
  return rewrite(common, british ? BRITISH_REWRITES : AMERICAN_REWRITES);
}

/** eSpeak's IPA as Piper reads it: eSpeak's own symbols, the items of a word run together. */
export function piperPhonemes(ipa: string): string {
  return eSpeakWords(ipa)
    .map((items) => items.join(''))
    .join(' ');
}

/**
 * Phonemes to ids through a vocabulary (one symbol, one id); symbols the model never learnt are left
 * out (eSpeak writes a few: tone digits, language-switch marks).
 */
export function phonemeIds(phonemes: string, vocabulary: ReadonlyMap<string, number>): number[] {
  const ids: number[] = [];
  for (const symbol of phonemes) {
    const id = vocabulary.get(symbol);
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

/**
 * Ids cut into runs of at most `max`: at the end of a phrase (a space after one of `phraseEnds`, a comma
 * or a full stop) in the run's second half when there is one, else at a space, else anywhere. Kokoro
 * reads at most 510 phonemes at once (its style files have one row per length), and the memory a run
 * needs grows with its length (kokoro-engine.ts, KOKORO_RUN_PHONEMES).
 */
export function chunkIds(
  ids: readonly number[],
  max: number,
  spaceId: number,
  phraseEnds: ReadonlySet<number> = new Set(),
): number[][] {
  const chunks: number[][] = [];
  let start = 0;
  while (ids.length - start > max) {
    let space = -1;
    let phrase = -1;
    for (let i = start + max; i > start + max / 2 && phrase === -1; i -= 1) {
      if (ids[i] !== spaceId) continue;
      if (space === -1) space = i;
      if (phraseEnds.has(ids[i - 1] ?? -1)) phrase = i;
    }
    const cut = phrase !== -1 ? phrase : space !== -1 ? space : start + max;
    chunks.push(ids.slice(start, cut));
    start = ids[cut] === spaceId ? cut + 1 : cut;
  }
  if (start < ids.length) chunks.push(ids.slice(start));
  return chunks;
}

/**
 * A whole text's phonemes: each stretch of words through `phonemize` (eSpeak, then the model's way of
 * writing it), the punctuation between them kept as the model reads it.
 */
export async function textPhonemes(
  text: string,
  phonemize: (words: string) => Promise<string>,
): Promise<string> {
  const parts = splitPunctuation(text.replace(/[‘’]/g, "'").replace(/\s+/g, ' '));
  let out = '';
  for (const part of parts) {
    if (part.punctuation) out += punctuationPhonemes(part.text);
    else if (part.text.trim()) out += await phonemize(part.text.trim());
  }
  return out.trim();
}

/**
 * A pronunciation (IPA, stress before the vowel: ipaPhones) written as eSpeak's `_`-joined items, so it
 * goes through the same tables as eSpeak's own phonemes (kokoroPhonemes, piperPhonemes).
 */
function asESpeakItems(ipa: string, espeakVoice: string): string {
  const english = espeakVoice === 'en' || espeakVoice.startsWith('en-');
  return ipaPhones(ipa)
    .map((word) =>
      word.map((p) => `${p.stress}${english && p.core === 'r' ? 'ɹ' : p.core}${p.long ? 'ː' : ''}`).join('_'),
    )
    .join(' ');
}

/**
 * A phoneme rule's IPA in Kokoro's inventory (research-30 §1 "Kokoro/Piper splice"): misaki's merges and
 * rewrites as for eSpeak's own phonemes (`təˈmɑːtoʊ` → `təmˈɑtO` in American English). Symbols still
 * outside the vocabulary are left out by phonemeIds.
 */
export function ipaToKokoro(ipa: string, espeakVoice: string): string {
  return kokoroPhonemes(asESpeakItems(ipa, espeakVoice), espeakVoice);
}

/** A phoneme rule's IPA as Piper reads it (eSpeak's own IPA: `təmˈɑːtoʊ`). */
export function ipaToPiper(ipa: string, espeakVoice: string): string {
  return piperPhonemes(asESpeakItems(ipa, espeakVoice));
}

/**
 * A text's phonemes with its phoneme spans (pronunciation rules, `<phoneme>` tags) said as given: the
 * stretches between them through `phonemize` (textPhonemes), each span's IPA through `spanPhonemes`, in
 * place of the word's eSpeak phonemes. Words stay apart where the text has a space.
 */
export async function splicedTextPhonemes(
  text: string,
  spans: readonly PhonemeSpan[],
  phonemize: (text: string) => Promise<string>,
  spanPhonemes: (ipa: string) => string,
): Promise<string> {
  if (spans.length === 0) return phonemize(text);
  const parts: { from: number; to: number; phonemes: string }[] = [];
  let at = 0;
  for (const span of spans) {
    if (span.start > at)
      parts.push({ from: at, to: span.start, phonemes: await phonemize(text.slice(at, span.start)) });
    parts.push({ from: span.start, to: span.end, phonemes: spanPhonemes(span.ipa) });
    at = span.end;
  }
  if (at < text.length) parts.push({ from: at, to: text.length, phonemes: await phonemize(text.slice(at)) });
  let out = '';
  let previous = '';
  for (const part of parts) {
    if (!part.phonemes) continue;
    const written = text.slice(part.from, part.to);
    const spaced = /\s$/u.test(previous) || /^\s/u.test(written);
    out += out && spaced ? ` ${part.phonemes}` : part.phonemes;
    previous = written;
  }
  return out;
}
