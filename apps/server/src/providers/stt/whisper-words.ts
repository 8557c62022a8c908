/**
 * Whisper's output as words with times (issue 29, parla_stt_multilingual_v1): sherpa-onnx gives the
 * decoded tokens and each token's start (cross-attention of the alignment heads + DTW, the with-attention
 * export), but no word ends. Pure functions, so the rules are tested without the model.
 */

export interface TimedWord {
  text: string;
  start: number;
  end: number;
}

/**
 * The longest a word is taken to last when the next word starts much later (a pause follows it): about
 * 0.12 s a character, at least 0.3 s. Whisper gives starts only; without a cap the word before a pause
 * would stretch over the pause.
 */
export function wordCap(text: string): number {
  const letters = text.replace(/[^\p{L}\p{N}]/gu, '').length;
  return Math.max(0.3, 0.12 * letters);
}

/**
 * Tokens to words: a token that starts with a space starts a word; the others (the rest of a word,
 * punctuation) join the word before. Starts come from the word's first token, kept in order; a word ends
 * where the next starts (at most `wordCap` later), the last at `end` (the speech's end, also capped).
 * Null when the tokens do not spell the text (a character split across tokens that sherpa could not
 * decode on its own): the caller spreads the words instead.
 */
export function wordsFromTokens(
  tokens: readonly string[],
  starts: readonly number[],
  text: string,
  end: number,
): TimedWord[] | null {
  if (tokens.length === 0 || starts.length !== tokens.length) return null;
  const groups: { text: string; start: number }[] = [];
  tokens.forEach((token, i) => {
    const start = starts[i] as number;
    const last = groups[groups.length - 1];
    if (!last || /^\s/.test(token)) groups.push({ text: token, start });
    else last.text += token;
  });
  const words = groups.map((g) => ({ text: g.text.trim(), start: g.start })).filter((w) => w.text !== '');
  const spelled = words.map((w) => w.text).join(' ');
  if (spelled !== text.trim().split(/\s+/).join(' ') || spelled.includes('\uFFFD')) return null;
  let previous = 0;
  const timed = words.map((w) => {
    previous = Math.max(previous, w.start);
    return { text: w.text, start: previous, end: previous };
  });
  timed.forEach((word, i) => {
    const next = timed[i + 1]?.start ?? Math.max(end, word.start);
    word.end = Math.max(word.start + 0.02, Math.min(next, word.start + wordCap(word.text)));
  });
  return timed;
}

const norm = (word: string) => word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * Whisper's known failure on unclear audio is a loop: the same word or phrase again and again to the end
 * of the window ("I am your friend." ×3, "O O O …", research 29 §2–3). A phrase of up to 8 words that
 * comes more than `keep` times in a row is cut to `keep` copies ("no, no, no" stays).
 */
export function dropRepeats<T extends { text: string }>(words: readonly T[], keep = 3): T[] {
  const out = [...words];
  for (let n = 1; n <= 8; n += 1) {
    for (let i = 0; i + n * (keep + 1) <= out.length; i += 1) {
      const phrase = out.slice(i, i + n).map((w) => norm(w.text));
      if (phrase.every((p) => p === '')) continue;
      const same = (at: number) => out.slice(at, at + n).every((w, k) => norm(w.text) === phrase[k]);
      let copies = 1;
      while (i + (copies + 1) * n <= out.length && same(i + copies * n)) copies += 1;
      if (copies > keep) out.splice(i + keep * n, (copies - keep) * n);
    }
  }
  return out;
}

/**
 * Words of one decoded window handed to the speech segments it covered, by where each word starts: a word
 * belongs to the last segment that starts at or before it (the first segment takes the words before it).
 * Whisper decodes a window of up to 28 s at once (its cost is per 30 s window, not per second of speech),
 * while the caller keeps one result per voice-activity segment (speakers are told apart per segment).
 */
export function assignToSegments<T extends { start: number }>(
  words: readonly T[],
  segmentStarts: readonly number[],
): T[][] {
  const out: T[][] = segmentStarts.map(() => []);
  for (const word of words) {
    let index = 0;
    for (let s = 0; s < segmentStarts.length; s += 1)
      if ((segmentStarts[s] as number) <= word.start + 1e-6) index = s;
    out[index]?.push(word);
  }
  return out;
}
