/*
 * A streaming resampler in plain JavaScript (a few milliseconds per second of audio): realtime
 * transcription's input to the recogniser's 16 kHz, and the engines' speech to a stream's output rate.
 */

/** Zero crossings of the windowed-sinc kernel on each side: a 8-lobe low-pass. */
const ZEROS = 8;
/** Kernel table steps per input sample. */
const STEPS = 128;

/**
 * Streaming resampler to a target rate: a windowed-sinc (Blackman) low-pass at the lower of the two
 * Nyquist frequencies, evaluated from a table, so 48 kHz → 16 kHz does not fold what is above 8 kHz into
 * speech. Keeps only the kernel's width of input between chunks; output lags input by that width, and
 * `flush()` gives the tail.
 */
export class Resampler {
  private readonly step: number;
  private readonly half: number;
  private readonly table: Float32Array;
  private readonly scale: number;
  /** Input not yet consumed, with `half` samples of history before the next output's centre. */
  private buffer: Float32Array;
  /** Position of the next output in `buffer` (input samples). */
  private position: number;

  constructor(
    readonly fromRate: number,
    readonly toRate: number,
  ) {
    this.step = fromRate / toRate;
    const cutoff = Math.min(1, toRate / fromRate);
    this.half = Math.ceil(ZEROS / cutoff);
    this.scale = cutoff;
    this.table = new Float32Array(this.half * STEPS + 2);
    for (let i = 0; i < this.table.length; i += 1) {
      const d = i / STEPS;
      const x = cutoff * d;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const w =
        d >= this.half
          ? 0
          : 0.42 + 0.5 * Math.cos((Math.PI * d) / this.half) + 0.08 * Math.cos((2 * Math.PI * d) / this.half);
      this.table[i] = sinc * w;
    }
    // Silence before the first sample, so the first output is centred on it.
    this.buffer = new Float32Array(this.half);
    this.position = this.half;
  }

  /** The next chunk of input at `fromRate`; returns what can be output at `toRate` so far. */
  push(input: Int16Array): Int16Array {
    if (this.fromRate === this.toRate) return input;
    const merged = new Float32Array(this.buffer.length + input.length);
    merged.set(this.buffer);
    for (let i = 0; i < input.length; i += 1) merged[this.buffer.length + i] = input[i] as number;
    return this.run(merged, false);
  }

  /** What is left (the last kernel's width), padded with silence. */
  flush(): Int16Array {
    if (this.fromRate === this.toRate) return new Int16Array(0);
    const merged = new Float32Array(this.buffer.length + this.half);
    merged.set(this.buffer);
    return this.run(merged, true);
  }

  private run(merged: Float32Array, last: boolean): Int16Array {
    const out: number[] = [];
    const { half, table, scale } = this;
    let p = this.position;
    while (Math.floor(p) + half < merged.length) {
      const centre = Math.floor(p);
      const frac = p - centre;
      let sum = 0;
      for (let k = centre - half + 1; k <= centre + half; k += 1) {
        const d = Math.abs(k - centre - frac) * STEPS;
        const i = Math.floor(d);
        const f = d - i;
        const weight = (table[i] as number) * (1 - f) + (table[i + 1] as number) * f;
        sum += (merged[k] as number) * weight;
      }
      const value = Math.round(sum * scale);
      out.push(Math.min(32767, Math.max(-32768, value)));
      p += this.step;
    }
    if (last) {
      this.buffer = new Float32Array(this.half);
      this.position = this.half;
    } else {
      // Keep from the first sample the next output needs.
      const keepFrom = Math.max(0, Math.floor(p) - half + 1);
      this.buffer = merged.slice(keepFrom);
      this.position = p - keepFrom;
    }
    return Int16Array.from(out);
  }
}
