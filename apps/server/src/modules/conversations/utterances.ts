/*
 * Where the user's turns begin and end in the conversation's audio (issue 28 item 2, and the review's
 * "an utterance is never cut"): a turn ends when voice activity reports the speech over, or, for speech
 * that goes on, at MAX_UTTERANCE_SECS: what was heard so far is a turn of its own (transcribed and
 * answered), so the audio a turn holds and its transcription time stay bounded. Speech that goes on after
 * the cut is the next utterance (and, as any speech over the agent, a barge-in).
 */

/** The longest user turn, in seconds (docs/decisions/0023-conversations.md, "Utterances"). */
export const MAX_UTTERANCE_SECS = 30;

/** An utterance's bounds, in samples of the conversation's 16 kHz audio. */
export interface Utterance {
  start: number;
  end: number;
  /** Cut at MAX_UTTERANCE_SECS while the user still spoke. */
  capped: boolean;
}

export class UtteranceTracker {
  /** Where the current utterance began, while the user speaks. */
  private begin: number | undefined;
  /** Where the last capped piece ended: the rest of that speech starts there. */
  private cutAt: number | undefined;

  constructor(
    private readonly rate: number,
    /** How much speech the detector needs before it says "speaking" (the onset is that far back). */
    private readonly onsetSecs: number,
    private readonly maxSecs = MAX_UTTERANCE_SECS,
  ) {}

  /** Samples of the current utterance so far (0 while the user is silent). */
  spokenSamples(fed: number): number {
    return this.begin === undefined ? 0 : fed - this.begin;
  }

  /**
   * One update of the voice-activity detector: whether it hears speech, the speech segments it closed,
   * and the samples it has been fed. Answers the utterance that ended (or was capped), if any.
   */
  update(speaking: boolean, segments: { start: number; end: number }[], fed: number): Utterance | undefined {
    if (speaking && this.begin === undefined)
      this.begin = Math.max(this.cutAt ?? 0, fed - Math.round(this.onsetSecs * this.rate));
    if (speaking && this.begin !== undefined && fed - this.begin >= this.maxSecs * this.rate) {
      const start = this.begin;
      this.begin = fed;
      this.cutAt = fed;
      return { start, end: fed, capped: true };
    }
    const ended = segments.at(-1);
    if (!ended || speaking) return undefined;
    const start = Math.max(
      this.cutAt ?? 0,
      Math.min(this.begin ?? ended.start, segments[0]?.start ?? ended.start),
    );
    this.begin = undefined;
    this.cutAt = undefined;
    return { start, end: Math.max(start, ended.end), capped: false };
  }
}
