import type { DubWord } from './dubbing.tables';

/*
 * Cutting a transcript into dubbing segments (issue 29, the pipeline's "cut segments at sentence and pause
 * boundaries"): each segment is one speaker's stretch of speech, short enough to translate as a unit and to
 * fit back into its own time slot, long enough to carry a whole sentence's meaning.
 */

/** A pause this long between two words always starts a new segment. */
export const PAUSE_CUT_SEC = 0.6;
/** A sentence end starts a new segment once the segment has this much speech. */
export const SENTENCE_MIN_SEC = 1.2;
/** Past this, a segment is cut at the next comma or pause of 0.25 s… */
export const SOFT_MAX_SEC = 10;
/** …and at the next word past this, whatever it is. */
export const HARD_MAX_SEC = 15;

export interface HeardSpeechSegment {
  speaker?: string | undefined;
  words: DubWord[];
}

export interface CutSegment {
  speaker: string;
  start: number;
  end: number;
  text: string;
  words: DubWord[];
}

const SENTENCE_END = /[.!?…。！？]["')\]]*$/;
const CLAUSE_END = /[,;:，、]["')\]]*$/;

/** Cuts the recogniser's segments (with word times and speakers) into dubbing segments, in time order. */
export function cutSegments(heard: readonly HeardSpeechSegment[]): CutSegment[] {
  const words = heard
    .flatMap((s) => s.words.map((w) => ({ ...w, speaker: s.speaker ?? 'speaker_0' })))
    .filter((w) => w.text.trim() !== '')
    .sort((a, b) => a.start - b.start);
  const out: CutSegment[] = [];
  let current: (DubWord & { speaker: string })[] = [];
  const flush = () => {
    const first = current[0];
    const last = current.at(-1);
    if (first && last)
      out.push({
        speaker: first.speaker,
        start: first.start,
        end: Math.max(last.end, first.start + 0.05),
        text: current.map((w) => w.text.trim()).join(' '),
        words: current.map(({ text, start, end }) => ({ text: text.trim(), start, end })),
      });
    current = [];
  };
  for (const word of words) {
    const first = current[0];
    const last = current.at(-1);
    if (first && last) {
      const gap = word.start - last.end;
      const length = last.end - first.start;
      const cut =
        word.speaker !== first.speaker ||
        gap >= PAUSE_CUT_SEC ||
        (SENTENCE_END.test(last.text) && length >= SENTENCE_MIN_SEC) ||
        (length >= SOFT_MAX_SEC &&
          (CLAUSE_END.test(last.text) || SENTENCE_END.test(last.text) || gap >= 0.25)) ||
        length >= HARD_MAX_SEC;
      if (cut) flush();
    }
    current.push(word);
  }
  flush();
  return out;
}
