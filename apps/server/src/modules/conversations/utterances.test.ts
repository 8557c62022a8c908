import { describe, expect, it } from 'vitest';
import { MAX_UTTERANCE_SECS, type Utterance, UtteranceTracker } from './utterances';

const RATE = 16_000;
const STEP = RATE / 10;

/** Feeds `secs` of one voice-activity state, 100 ms at a time; answers the utterances cut. */
function feed(tracker: UtteranceTracker, at: { fed: number }, secs: number, speaking: boolean) {
  const out: Utterance[] = [];
  const speechFrom = at.fed;
  for (let i = 0; i < secs * 10; i += 1) {
    at.fed += STEP;
    // The detector closes a segment once the silence after it is long enough (here: at once).
    const segments = !speaking && i === 0 && at.fed > STEP ? [{ start: 0, end: speechFrom }] : [];
    const cut = tracker.update(speaking, segments, at.fed);
    if (cut) out.push(cut);
  }
  return out;
}

describe('a user turn is bounded', () => {
  it('cuts speech that goes on at MAX_UTTERANCE_SECS, and the rest is the next utterance', () => {
    const tracker = new UtteranceTracker(RATE, 0.15);
    const at = { fed: 0 };
    const during = feed(tracker, at, 42, true);
    // 42 s of speech without a pause: one turn at the cap; the rest waits for its end.
    expect(during).toHaveLength(1);
    expect(during[0]).toEqual({ start: 0, end: MAX_UTTERANCE_SECS * RATE, capped: true });
    expect(tracker.spokenSamples(at.fed)).toBe(12 * RATE);
    const after = feed(tracker, at, 1, false);
    expect(after).toEqual([{ start: MAX_UTTERANCE_SECS * RATE, end: 42 * RATE, capped: false }]);
    expect(tracker.spokenSamples(at.fed)).toBe(0);
  });

  it('leaves a short utterance whole, from its onset to the end of its segment', () => {
    const tracker = new UtteranceTracker(RATE, 0.15);
    const at = { fed: RATE };
    feed(tracker, at, 0, false);
    const during = feed(tracker, at, 3, true);
    expect(during).toEqual([]);
    const after = feed(tracker, at, 1, false);
    expect(after).toHaveLength(1);
    expect(after[0]?.capped).toBe(false);
    expect(after[0]?.end).toBe(4 * RATE);
  });
});
