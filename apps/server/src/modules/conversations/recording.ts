/*
 * A conversation's two sides at 16 kHz (issue 28 item 5, "audio (the recorded conversation)"): the user's
 * audio as it arrived, and the agent's speech placed where it was sent in the user's timeline. It is what
 * the turn loop cuts utterances from (`slice`), and, mixed, the recording kept when the conversation ends.
 */

export const RECORDING_RATE = 16_000;
/** The longest a recording is kept in memory: an hour (a conversation lasts at most its max duration). */
const MAX_SAMPLES = 3600 * RECORDING_RATE;

export class ConversationRecording {
  private readonly chunks: Int16Array[] = [];
  private total = 0;
  private readonly agent: { at: number; samples: Int16Array }[] = [];
  private agentEnd = 0;

  /** Samples of the user's side so far (the timeline's clock). */
  get length(): number {
    return this.total;
  }

  get hasUserAudio(): boolean {
    return this.total > 0;
  }

  get hasAgentAudio(): boolean {
    return this.agent.length > 0;
  }

  appendUser(samples: Int16Array): void {
    if (this.total >= MAX_SAMPLES || samples.length === 0) return;
    this.chunks.push(samples);
    this.total += samples.length;
  }

  /** The agent's audio, placed after what the agent said before and no earlier than now. */
  placeAgent(samples: Int16Array): void {
    const at = Math.max(this.total, this.agentEnd);
    if (at >= MAX_SAMPLES) return;
    this.agent.push({ at, samples });
    this.agentEnd = at + samples.length;
  }

  /** The user's audio from `start` to `end` (samples from the start; clipped to what arrived). */
  slice(start: number, end: number): Int16Array {
    const from = Math.max(0, start);
    const to = Math.min(this.total, end);
    const out = new Int16Array(Math.max(0, to - from));
    let offset = 0;
    for (const chunk of this.chunks) {
      const chunkEnd = offset + chunk.length;
      if (chunkEnd > from && offset < to) {
        const a = Math.max(from, offset) - offset;
        const b = Math.min(to, chunkEnd) - offset;
        out.set(chunk.subarray(a, b), offset + a - from);
      }
      offset = chunkEnd;
      if (offset >= to) break;
    }
    return out;
  }

  /** Both sides mixed (summed, clipped), as long as the longer of the two. */
  mix(): Int16Array {
    const length = Math.min(MAX_SAMPLES, Math.max(this.total, this.agentEnd));
    const mixed = new Int32Array(length);
    let offset = 0;
    for (const chunk of this.chunks) {
      for (let i = 0; i < chunk.length && offset + i < length; i += 1)
        mixed[offset + i] = (chunk[i] as number) + (mixed[offset + i] as number);
      offset += chunk.length;
    }
    for (const { at, samples } of this.agent) {
      for (let i = 0; i < samples.length && at + i < length; i += 1)
        mixed[at + i] = (samples[i] as number) + (mixed[at + i] as number);
    }
    const out = new Int16Array(length);
    for (let i = 0; i < length; i += 1) out[i] = Math.max(-32768, Math.min(32767, mixed[i] as number));
    return out;
  }
}
