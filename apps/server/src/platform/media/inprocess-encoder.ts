import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { pcmToAlaw, pcmToUlaw, Resampler } from '@parla/audio';
import {
  type OutputFormatSpec as AudioSpec,
  describeOutputFormat,
  type OutputFormat,
} from '@parla/contracts';
import { createEncoder } from 'wasm-media-encoders';
import type { StreamEncoder } from './encode-audio';

/*
 * Streamed encoding without a process (issue 20's socket latency): MP3 through LAME compiled to
 * WebAssembly (`wasm-media-encoders`, resampling inside LAME), raw PCM and G.711 through @parla/audio's
 * resampler. Starting Debian's ffmpeg costs ~0.15 s of CPU (its ~200 libraries) per stream, more than the
 * engine's own time for a sentence: eight sockets starting at once spent over a second of both cores on
 * it. Here a stream's start is a LAME instance kept from an earlier stream, configured afresh (~5 ms;
 * the module is compiled once per process), and LAME encodes ~3 s of speech in ~25–30 ms. The work runs on the server's thread in
 * slices of a quarter second of audio (a few milliseconds each), yielding between them. Opus and WAV
 * streams stay with ffmpeg.
 */

/** Input samples encoded per slice before the event loop gets a turn. */
const SLICE_SAMPLES = 4096;
const require = createRequire(import.meta.url);

/** A compiled WebAssembly module, as the encoder library takes it. */
type WasmModule = Parameters<typeof createEncoder>[1];
/** The part of the WebAssembly global used here (the server's TypeScript libraries have no DOM types). */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } })
  .WebAssembly;

let mp3Module: Promise<WasmModule> | undefined;

/** LAME's module, compiled once per process (~80 ms, the first time). */
export function mp3EncoderModule(): Promise<WasmModule> {
  mp3Module ??= fs
    .readFile(require.resolve('wasm-media-encoders/wasm/mp3'))
    .then((bytes) => wasm.compile(bytes));
  // A failed compile is tried again by the next stream, not kept.
  mp3Module.catch(() => {
    mp3Module = undefined;
  });
  return mp3Module;
}

/**
 * LAME instances between streams: each holds 16 MB of WebAssembly memory, so one per stream made the
 * collector run often enough to add tens of milliseconds to a socket's first audio. A stream takes one
 * (configure() starts it afresh) and gives it back when it ends; at most this many wait unused.
 */
const MAX_IDLE_MP3_ENCODERS = 8;
const idleMp3Encoders: Mp3Encoder[] = [];

async function takeMp3Encoder(): Promise<Mp3Encoder> {
  return idleMp3Encoders.pop() ?? createEncoder('audio/mpeg', await mp3EncoderModule());
}

function giveBackMp3Encoder(encoder: Mp3Encoder): void {
  if (idleMp3Encoders.length < MAX_IDLE_MP3_ENCODERS) idleMp3Encoders.push(encoder);
}

/** Whether a format's streams are encoded here rather than by ffmpeg. */
export function encodesInProcess(format: OutputFormat): boolean {
  const { codec } = describeOutputFormat(format);
  return codec === 'mp3' || codec === 'pcm' || codec === 'ulaw' || codec === 'alaw';
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One slice's encoder: samples at the stream's input rate in, encoded bytes out. */
interface SliceCodec {
  encode(samples: Int16Array): Uint8Array;
  finish(): Uint8Array;
}

type Mp3Encoder = Awaited<ReturnType<typeof createEncoder<'audio/mpeg'>>>;
type Mp3Rate = 8000 | 11025 | 12000 | 16000 | 22050 | 24000 | 32000 | 44100 | 48000;
type Mp3Bitrate = 8 | 16 | 24 | 32 | 40 | 48 | 64 | 80 | 96 | 112 | 128 | 160 | 192 | 224 | 256 | 320;

function mp3Codec(encoder: Mp3Encoder, spec: AudioSpec, inputRate: number): SliceCodec {
  encoder.configure({
    channels: 1,
    sampleRate: inputRate,
    outputSampleRate: spec.sampleRate as Mp3Rate,
    bitrate: spec.bitrate as Mp3Bitrate,
  });
  const floats = new Float32Array(SLICE_SAMPLES);
  return {
    encode(samples) {
      const input = floats.subarray(0, samples.length);
      for (let i = 0; i < samples.length; i += 1) input[i] = (samples[i] as number) / 32768;
      // The encoder's output buffer is its own and reused: copied before the next call.
      return encoder.encode([input]).slice();
    },
    finish: () => encoder.finalize().slice(),
  };
}

function rawCodec(spec: AudioSpec, inputRate: number): SliceCodec {
  const resampler = new Resampler(inputRate, spec.sampleRate);
  const toBytes = (samples: Int16Array): Uint8Array => {
    if (spec.codec === 'ulaw') return pcmToUlaw(samples);
    if (spec.codec === 'alaw') return pcmToAlaw(samples);
    // s16le: this machine's order, as every server Parla runs on (x86-64, arm64) is little-endian.
    return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength).slice();
  };
  return {
    encode: (samples) => toBytes(resampler.push(samples)),
    finish: () => toBytes(resampler.flush()),
  };
}

/**
 * A stream encoder (the interface ffmpeg's has) for MP3, PCM, μ-law and A-law. Writes are queued and
 * encoded in order; `output` gives the bytes as slices are done; `done` resolves once `end()`'s last bytes
 * are out, and rejects after `kill()`.
 */
export function createInProcessEncoder(format: OutputFormat): StreamEncoder {
  const spec = describeOutputFormat(format);
  const output = new PassThrough();
  const queue: Int16Array[] = [];
  let inputRate: number | undefined;
  let ending = false;
  let finished = false;
  let killed = false;
  let running: Promise<void> | undefined;
  let codec: SliceCodec | undefined;
  /** The LAME instance this stream holds, from its first samples to its end. */
  let lame: Mp3Encoder | undefined;
  const release = () => {
    if (lame) giveBackMp3Encoder(lame);
    lame = undefined;
  };
  let settle: { resolve: () => void; reject: (error: Error) => void } = {
    resolve: () => undefined,
    reject: () => undefined,
  };
  const done = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  done.catch(() => undefined);

  const emit = (bytes: Uint8Array) => {
    if (bytes.length > 0 && !killed && !output.destroyed)
      output.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  };

  const pump = async () => {
    try {
      // The first slice waits a turn too: output never comes inside write().
      await nextTurn();
      while (!killed) {
        const samples = queue.shift();
        if (samples === undefined) {
          if (!ending) break;
          if (codec) emit(codec.finish());
          finished = true;
          output.end();
          settle.resolve();
          return;
        }
        if (!codec) {
          if (spec.codec === 'mp3') {
            lame = await takeMp3Encoder();
            codec = mp3Codec(lame, spec, inputRate as number);
          } else codec = rawCodec(spec, inputRate as number);
        }
        for (let at = 0; at < samples.length && !killed; at += SLICE_SAMPLES) {
          emit(codec.encode(samples.subarray(at, at + SLICE_SAMPLES)));
          await nextTurn();
        }
      }
    } catch (error) {
      killed = true;
      // An instance that failed mid-stream is dropped, not given to the next stream.
      lame = undefined;
      // The output ends (an 'error' event nobody listens to would end the process); `done` says why.
      output.end();
      settle.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      running = undefined;
      if (killed || finished) release();
      else if (queue.length > 0 || ending) start();
    }
  };
  const start = () => {
    running ??= pump();
  };

  return {
    write(samples, sampleRate) {
      if (inputRate === undefined) inputRate = sampleRate;
      else if (sampleRate !== inputRate) {
        throw new Error(`A stream at ${inputRate} Hz was given samples at ${sampleRate} Hz.`);
      }
      if (killed || ending) return;
      // A copy: the caller's samples are theirs to reuse.
      queue.push(samples.slice());
      start();
    },
    end() {
      if (ending || killed) return;
      ending = true;
      start();
    },
    output,
    done,
    kill() {
      if (killed) return;
      killed = true;
      queue.length = 0;
      // A running pump gives the instance back when it stops.
      if (!running) release();
      output.end();
      settle.reject(new Error('The encoder was stopped.'));
    },
  };
}
