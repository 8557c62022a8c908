/**
 * Where a stream's first sentence may be cut so its first audio comes sooner (issue 27, "time to first
 * audio of a 12-word first sentence ≤ 600 ms"). Kokoro speaks a run at once, with no audio until the
 * whole run is done, so a 12-word sentence's first audio waits for all twelve words (~1.3 s on the
 * 2-core machine); its first clause or first five words take about half. The speech pipeline synthesizes
 * the first piece, starts sending it, and synthesizes the rest while it plays (the rest takes less time to
 * make than the first piece takes to play: Kokoro is ≥ 3× real time). Measured in
 * bench/neural-tts.bench.ts ("first piece").
 */

/** A sentence of this many words or fewer is spoken whole: cutting it gains little. */
const SHORTEST_CUT_SENTENCE = 7;
/** The first piece: at least this many words, the rest at least two. */
const FIRST_PIECE_MIN_WORDS = 3;
/** A phrase end (a comma) ends the first piece when it comes within this many words. */
const FIRST_PIECE_MAX_WORDS = 8;
/** With no phrase end that soon, the cut comes after about this many words (4–6). */
const FIRST_PIECE_WORDS = 5;
/** Words a cut never follows (a piece ending in them sounds cut off mid-phrase). */
const NO_CUT_AFTER = new Set(
  'a an the and or but nor of to in on at by for with from into onto as than that this these those my your his her its our their is are was were be been am not no very so if'.split(
    ' ',
  ),
);

/**
 * The length (in characters) of the first piece of `sentence` to synthesize on its own, or the whole
 * sentence's length when it should not be cut. The cut is at the first phrase end (`, ; : —`) after 3 to
 * 8 words, else after the 5th word (or the 4th or 6th, so as not to end on "the", "and", "of"…), and
 * always leaves at least two words. `sentence.slice(0, n)` and `sentence.slice(n)` are the two pieces.
 */
export function firstPieceLength(sentence: string): number {
  const words = [...sentence.matchAll(/\S+/g)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    text: m[0],
  }));
  if (words.length < SHORTEST_CUT_SENTENCE) return sentence.length;
  const lastCut = words.length - 2; // the first piece's last word, at most: two words left
  for (let k = FIRST_PIECE_MIN_WORDS; k <= Math.min(FIRST_PIECE_MAX_WORDS, lastCut); k += 1) {
    const word = words[k - 1];
    if (word && /[,;:—–]["”’)]*$/u.test(word.text)) return word.end;
  }
  for (const k of [FIRST_PIECE_WORDS, FIRST_PIECE_WORDS - 1, FIRST_PIECE_WORDS + 1]) {
    const word = words[k - 1];
    if (!word || k > lastCut) continue;
    const bare = word.text.toLowerCase().replace(/[^\p{L}']/gu, '');
    if (!NO_CUT_AFTER.has(bare)) return word.end;
  }
  return words[Math.min(FIRST_PIECE_WORDS, lastCut) - 1]?.end ?? sentence.length;
}
