import { PassThrough } from 'node:stream';
import { describeOutputFormat, type OutputFormat } from '@parla/contracts';
import { createStreamEncoder, type StreamEncoder } from '../../platform/media/encode-audio';

/** How long a timestamps line waits for the encoder to give out the audio just written. */
const CATCH_UP_MS = 250;
/** Encoder output that pauses this long is taken to have caught up with its input. */
const QUIET_MS = 25;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The body of a streamed generation (text to speech, dialogue): every piece of audio goes through ONE
 * encoder, so the bytes sent are consecutive pieces of one audio stream. With `audio` they go out as ffmpeg
 * makes them; with `timestamps` each written piece becomes one JSON line whose `audio_base64` holds the
 * encoded bytes produced since the line before (an mp3 client may decode the concatenation, as the public
 * API's docs show), with the piece's timing fields; bytes the encoder still held at the end go out in a
 * last line of audio only. The streamed bytes are also the history item's audio, except WAV (its streamed
 * header has no length) and Ogg Opus (paged differently from a whole encoding).
 */
export class StreamedAudio {
  /** What the client reads. A client that goes away destroys it; the generation still finishes. */
  readonly out = new PassThrough();
  readonly contentType: string;
  /** Whether the streamed bytes may be kept as the history item's audio. */
  readonly keepsStreamed: boolean;
  private readonly encoder: StreamEncoder;
  private readonly ended: Promise<unknown>;
  private readonly kept: Buffer[] = [];
  /** Encoded bytes not yet sent in a timestamps line. */
  private unsent: Buffer[] = [];
  private lastOutputAt = 0;
  private written = false;

  /**
   * Starts the encoder now, so it loads while the budget is opened and the first piece is spoken;
   * `timeoutMs` bounds the whole stream's encoding where an ffmpeg process does it (Opus, WAV).
   */
  constructor(
    format: OutputFormat,
    private readonly mode: 'audio' | 'timestamps',
    timeoutMs: number,
    /** With `timestamps`: each line is handed here instead of written to `out` (the sockets' messages). */
    private readonly onLine?: (line: { audio: Buffer } & Record<string, unknown>) => void,
  ) {
    const spec = describeOutputFormat(format);
    this.contentType = mode === 'audio' ? spec.contentType : 'application/x-ndjson';
    // A socket's stream (onLine) may last long: its bytes are sent, never gathered.
    this.keepsStreamed = !onLine && spec.codec !== 'wav' && spec.codec !== 'opus';
    this.out.on('error', () => undefined);
    this.encoder = createStreamEncoder(format, timeoutMs);
    // A failed encoding is told by `done`; its output's error must not end the process.
    this.encoder.output.on('error', () => undefined);
    this.ended = new Promise((resolve) => this.encoder.output.once('end', resolve));
    this.encoder.output.on('data', (chunk: Buffer) => {
      this.lastOutputAt = performance.now();
      if (this.keepsStreamed) this.kept.push(chunk);
      if (this.mode !== 'timestamps') this.send(chunk);
      else if (this.onLine && !this.writing) this.onLine({ audio: chunk });
      else this.unsent.push(chunk);
    });
  }

  /**
   * Whether a piece's line is being made. A socket's (onLine) encoder output that comes after its line
   * went out is sent at once as audio alone, not held for the next piece's line: a socket's next piece
   * may come much later (the client types on).
   */
  private writing = false;

  /**
   * Encodes one piece (every piece at the first one's sample rate; a piece with no samples still starts the
   * stream, so a text with no sound at all gets a valid, empty audio stream). With `timestamps`, its line
   * goes out once the encoder has given out what it can of it: when its output pauses, or after
   * CATCH_UP_MS; a socket's (onLine) with the first bytes of it.
   */
  async write(samples: Int16Array, sampleRate: number, timing: object): Promise<void> {
    this.encoder.write(samples, sampleRate);
    this.written = true;
    if (this.mode !== 'timestamps') return;
    this.writing = true;
    const writtenAt = performance.now();
    if (samples.length > 0) {
      for (;;) {
        const now = performance.now();
        const output = this.lastOutputAt > writtenAt;
        // A socket's line (onLine) goes with the piece's first encoded bytes, the rest following as
        // audio alone as the encoder gives it out: its client plays from the first bytes.
        const caughtUp = output && (this.onLine !== undefined || now - this.lastOutputAt >= QUIET_MS);
        if (caughtUp || now - writtenAt >= CATCH_UP_MS) break;
        await sleep(this.onLine ? 1 : 5);
      }
    }
    this.writing = false;
    this.sendLine(timing);
  }

  /** Waits for the first encoded bytes, or `ms` (a first piece with little sound may give none yet). */
  async firstOutput(ms: number): Promise<void> {
    const first = new Promise((resolve) => {
      if (this.lastOutputAt > 0) resolve(undefined);
      this.encoder.output.once('data', resolve);
      this.encoder.output.once('end', resolve);
    });
    await Promise.race([first, sleep(ms)]);
  }

  /**
   * Ends the encoding and the body's audio (with `timestamps`, a last line of the bytes the encoder still
   * held, with the `tail` fields a client requires): answers the streamed bytes when they can be the
   * history item's audio, else undefined (encode the whole instead). The body itself stays open: `end()`
   * closes it once the generation is settled.
   */
  async finish(tail: object = {}): Promise<Buffer | undefined> {
    // Nothing was spoken at all (no sentence): no stream either.
    if (!this.written) {
      this.encoder.kill();
      return undefined;
    }
    this.encoder.end();
    await this.encoder.done;
    await this.ended;
    if (this.mode === 'timestamps' && this.unsent.length > 0) this.sendLine(tail);
    return this.keepsStreamed ? Buffer.concat(this.kept) : undefined;
  }

  end(): void {
    this.out.end();
  }

  /** The generation failed: the encoder stops and the body ends early with the error. */
  fail(error: unknown): void {
    this.encoder.kill();
    this.out.destroy(error instanceof Error ? error : new Error(String(error)));
  }

  /** Stops the encoder of a stream that never started (the budget was refused). */
  abandon(): void {
    this.encoder.kill();
  }

  private sendLine(timing: object): void {
    const audio = Buffer.concat(this.unsent);
    this.unsent = [];
    if (this.onLine) {
      this.onLine({ ...timing, audio });
      return;
    }
    this.send(`${JSON.stringify({ audio_base64: audio.toString('base64'), ...timing })}\n`);
  }

  private send(chunk: Buffer | string): void {
    if (!this.out.destroyed) this.out.write(chunk);
  }
}

/** The encoding bound of a stream: a minute, plus room for long texts spoken slowly under load. */
export function streamEncodingBoundMs(characters: number): number {
  return 60_000 + 60 * characters;
}
