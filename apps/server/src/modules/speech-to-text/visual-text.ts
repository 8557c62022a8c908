/*
 * Text in the order a PDF draws it (decision record 0014): a PDF shows glyphs left to right as they are
 * written, so right-to-left scripts are shaped and reordered here. Arabic letters take their joined forms
 * (initial, medial, final, isolated: the Arabic Presentation Forms characters, which DejaVu Sans has) and
 * lam + alef its ligature; a right-to-left run (Arabic, Hebrew) is reversed, numbers in it keep their
 * left-to-right order and brackets are mirrored.
 *
 * Limits: a line's base direction is always left to right (a transcript line starts with its time and
 * speaker), not the full Unicode bidirectional algorithm (UAX #9: no explicit embeddings, a right-to-left
 * paragraph is not right-aligned); Arabic shaping covers the Arabic alphabet and the Persian and Urdu
 * letters of Presentation Forms-A that DejaVu Sans draws, not the font's own contextual tables (GSUB).
 */

/** A cluster as drawn: the character whose glyph is shown, and the text it stands for. */
export interface VisualCluster {
  /** What to draw: one character (a presentation form where Arabic joins), marks following it. */
  shown: string;
  /** The logical text it stands for (a ligature stands for two letters). */
  source: string;
  /** Whether it stands in a right-to-left run, which is drawn reversed. */
  reversed?: boolean;
}

/** Arabic letters' forms: [isolated, final, initial, medial]; two forms for a letter that joins only before. */
const ARABIC_FORMS: ReadonlyMap<number, readonly number[]> = new Map([
  [0x0622, [0xfe81, 0xfe82]],
  [0x0623, [0xfe83, 0xfe84]],
  [0x0624, [0xfe85, 0xfe86]],
  [0x0625, [0xfe87, 0xfe88]],
  [0x0626, [0xfe89, 0xfe8a, 0xfe8b, 0xfe8c]],
  [0x0627, [0xfe8d, 0xfe8e]],
  [0x0628, [0xfe8f, 0xfe90, 0xfe91, 0xfe92]],
  [0x0629, [0xfe93, 0xfe94]],
  [0x062a, [0xfe95, 0xfe96, 0xfe97, 0xfe98]],
  [0x062b, [0xfe99, 0xfe9a, 0xfe9b, 0xfe9c]],
  [0x062c, [0xfe9d, 0xfe9e, 0xfe9f, 0xfea0]],
  [0x062d, [0xfea1, 0xfea2, 0xfea3, 0xfea4]],
  [0x062e, [0xfea5, 0xfea6, 0xfea7, 0xfea8]],
  [0x062f, [0xfea9, 0xfeaa]],
  [0x0630, [0xfeab, 0xfeac]],
  [0x0631, [0xfead, 0xfeae]],
  [0x0632, [0xfeaf, 0xfeb0]],
  [0x0633, [0xfeb1, 0xfeb2, 0xfeb3, 0xfeb4]],
  [0x0634, [0xfeb5, 0xfeb6, 0xfeb7, 0xfeb8]],
  [0x0635, [0xfeb9, 0xfeba, 0xfebb, 0xfebc]],
  [0x0636, [0xfebd, 0xfebe, 0xfebf, 0xfec0]],
  [0x0637, [0xfec1, 0xfec2, 0xfec3, 0xfec4]],
  [0x0638, [0xfec5, 0xfec6, 0xfec7, 0xfec8]],
  [0x0639, [0xfec9, 0xfeca, 0xfecb, 0xfecc]],
  [0x063a, [0xfecd, 0xfece, 0xfecf, 0xfed0]],
  [0x0641, [0xfed1, 0xfed2, 0xfed3, 0xfed4]],
  [0x0642, [0xfed5, 0xfed6, 0xfed7, 0xfed8]],
  [0x0643, [0xfed9, 0xfeda, 0xfedb, 0xfedc]],
  [0x0644, [0xfedd, 0xfede, 0xfedf, 0xfee0]],
  [0x0645, [0xfee1, 0xfee2, 0xfee3, 0xfee4]],
  [0x0646, [0xfee5, 0xfee6, 0xfee7, 0xfee8]],
  [0x0647, [0xfee9, 0xfeea, 0xfeeb, 0xfeec]],
  [0x0648, [0xfeed, 0xfeee]],
  [0x0649, [0xfeef, 0xfef0]],
  [0x064a, [0xfef1, 0xfef2, 0xfef3, 0xfef4]],
  // Persian and Urdu letters (Presentation Forms-A).
  [0x067e, [0xfb56, 0xfb57, 0xfb58, 0xfb59]],
  [0x0686, [0xfb7a, 0xfb7b, 0xfb7c, 0xfb7d]],
  [0x0698, [0xfb8a, 0xfb8b]],
  [0x06a9, [0xfb8e, 0xfb8f, 0xfb90, 0xfb91]],
  [0x06af, [0xfb92, 0xfb93, 0xfb94, 0xfb95]],
  [0x06cc, [0xfbfc, 0xfbfd, 0xfbfe, 0xfbff]],
]);

/** Lam + alef (with madda, hamza above, hamza below, plain): the ligature's isolated and final forms. */
const LAM_ALEF: ReadonlyMap<number, readonly [number, number]> = new Map([
  [0x0622, [0xfef5, 0xfef6]],
  [0x0623, [0xfef7, 0xfef8]],
  [0x0625, [0xfef9, 0xfefa]],
  [0x0627, [0xfefb, 0xfefc]],
]);

const LAM = 0x0644;
const TATWEEL = 0x0640;
const ZWJ = 0x200d;

/** Whether a letter joins the one after it (dual-joining, or the tatweel and the zero-width joiner). */
const joinsAfter = (code: number) =>
  (ARABIC_FORMS.get(code)?.length ?? 0) === 4 || code === TATWEEL || code === ZWJ;
/** Whether a letter joins the one before it. */
const joinsBefore = (code: number) => ARABIC_FORMS.has(code) || code === TATWEEL || code === ZWJ;
/** A mark drawn on the letter before it; it does not break the joining. */
const isMark = (char: string) => /\p{M}/u.test(char);

/** Each closing bracket's opening one. */
const OPENING_OF_CLOSING: ReadonlyMap<string, string> = new Map([
  [')', '('],
  [']', '['],
  ['}', '{'],
  ['»', '«'],
  ['›', '‹'],
]);

/** Right-to-left letters: Hebrew, Arabic (and its supplements and presentation forms), Syriac, Thaana, N'Ko. */
const RTL_LETTER = /[\u0591-\u07FF\u0860-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]/u;
const DIGIT = /[0-9\u0660-\u0669\u06F0-\u06F9]/u;
/** Separators that stay inside a number (1,000.5 · 12:30 · 3/4). */
const NUMBER_SEPARATOR = /[.,:/]/u;
/** Letters that set a run left to right. */
const LTR_LETTER = /\p{L}/u;
const MIRRORED: Readonly<Record<string, string>> = {
  '(': ')',
  ')': '(',
  '[': ']',
  ']': '[',
  '{': '}',
  '}': '{',
  '<': '>',
  '>': '<',
  '«': '»',
  '»': '«',
  '‹': '›',
  '›': '‹',
};

/** Clusters in logical order, Arabic letters in their joined forms (lam + alef as one ligature). */
export function shapeClusters(text: string): VisualCluster[] {
  const chars = [...text];
  const clusters: VisualCluster[] = [];
  // The letter before the current one, skipping marks: does it join forward?
  const previousLetter = (index: number) => {
    for (let i = index - 1; i >= 0; i -= 1) if (!isMark(chars[i] as string)) return chars[i]?.codePointAt(0);
    return undefined;
  };
  const nextLetter = (index: number) => {
    for (let i = index + 1; i < chars.length; i += 1) if (!isMark(chars[i] as string)) return i;
    return undefined;
  };
  for (let index = 0; index < chars.length; index += 1) {
    const char = chars[index] as string;
    const code = char.codePointAt(0) as number;
    if (isMark(char) && clusters.length > 0) {
      const last = clusters.at(-1) as VisualCluster;
      last.shown += char;
      last.source += char;
      continue;
    }
    const before = previousLetter(index);
    const joinedBefore = before !== undefined && joinsAfter(before) && joinsBefore(code);
    const next = nextLetter(index);
    const nextCode = next === undefined ? undefined : chars[next]?.codePointAt(0);
    if (code === LAM && nextCode !== undefined && LAM_ALEF.has(nextCode)) {
      const [isolated, final] = LAM_ALEF.get(nextCode) as readonly [number, number];
      // The marks between lam and alef stay on the ligature.
      const marks = chars.slice(index + 1, next).join('');
      clusters.push({
        shown: String.fromCodePoint(joinedBefore ? final : isolated) + marks,
        source: char + marks + (chars[next as number] as string),
      });
      index = next as number;
      continue;
    }
    const forms = ARABIC_FORMS.get(code);
    if (!forms) {
      clusters.push({ shown: char, source: char });
      continue;
    }
    const joinedAfter = joinsAfter(code) && nextCode !== undefined && joinsBefore(nextCode);
    const form = joinedBefore ? (joinedAfter ? 3 : 1) : joinedAfter ? 2 : 0;
    clusters.push({ shown: String.fromCodePoint(forms[form] ?? forms[0] ?? code), source: char });
  }
  return clusters;
}

type Strength = 'rtl' | 'ltr' | 'number' | 'neutral';

const strengthOf = (cluster: VisualCluster): Strength => {
  const char = cluster.source;
  if (RTL_LETTER.test(char)) return 'rtl';
  if (DIGIT.test(char)) return 'number';
  if (LTR_LETTER.test(char)) return 'ltr';
  return 'neutral';
};

/**
 * A text's clusters in the order they are drawn, left to right, in a line whose base direction is left to
 * right: each right-to-left run — from a right-to-left letter to the last one before a left-to-right
 * letter, numbers after it included (UAX #9 rules W7, N1, I1) — reversed, its numbers kept in their order
 * and its brackets mirrored.
 */
export function visualClusters(text: string): VisualCluster[] {
  // Most text has no right-to-left letter and no mark: each character is drawn as it is.
  if (!RTL_LETTER.test(text) && !/\p{M}/u.test(text))
    return Array.from(text, (char) => ({ shown: char, source: char }));
  const clusters = shapeClusters(text);
  const strengths = clusters.map(strengthOf);
  const out: VisualCluster[] = [];
  let index = 0;
  while (index < clusters.length) {
    if (strengths[index] !== 'rtl') {
      out.push(clusters[index] as VisualCluster);
      index += 1;
      continue;
    }
    // The run: right-to-left letters and numbers, and what stands between them.
    let end = index;
    for (let k = index + 1; k < clusters.length; k += 1) {
      const strength = strengths[k];
      if (strength === 'ltr') break;
      if (strength === 'rtl' || strength === 'number') end = k;
    }
    // A closing bracket whose opening one is in the run belongs to it (UAX #9 rule N0, simplified).
    for (let k = end + 1; k < clusters.length && strengths[k] === 'neutral'; k += 1) {
      const opening = OPENING_OF_CLOSING.get(clusters[k]?.source ?? '');
      if (opening === undefined) continue;
      const inRun = clusters.slice(index, k).map((c) => c.source);
      const opened = inRun.filter((c) => c === opening).length;
      if (opened > inRun.filter((c) => c === clusters[k]?.source).length) end = k;
    }
    // A number's separators between two digits belong to the number.
    const run = clusters.slice(index, end + 1);
    const kinds = strengths.slice(index, end + 1);
    const units: { clusters: VisualCluster[]; numeric: boolean }[] = [];
    for (let k = 0; k < run.length; k += 1) {
      const numeric =
        kinds[k] === 'number' ||
        (NUMBER_SEPARATOR.test(run[k]?.source ?? '') &&
          kinds[k - 1] === 'number' &&
          kinds[k + 1] === 'number');
      const last = units.at(-1);
      if (numeric && last?.numeric) last.clusters.push(run[k] as VisualCluster);
      else units.push({ clusters: [run[k] as VisualCluster], numeric });
    }
    for (const unit of units.reverse()) {
      for (const cluster of unit.clusters) {
        out.push({ shown: MIRRORED[cluster.shown] ?? cluster.shown, source: cluster.source, reversed: true });
      }
    }
    index = end + 1;
  }
  return out;
}
