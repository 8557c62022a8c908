/// <reference path="./rnnoise-wasm.d.ts" />
import type { PcmAudio } from '@parla/audio';
import { runMediaTool } from '../../platform/media/run-media-tool';
import type { DenoiseProvider } from './denoise-provider';

/** The parts of the RNNoise Emscripten module used here. */
interface RnnoiseModule {
  /** A view of the module's memory: replaced when the memory grows, so read it again after a malloc. */
  HEAPF32: Float32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  /** A new suppressor state with the built-in model (argument 0). */
  _rnnoise_create(model: number): number;
  _rnnoise_destroy(state: number): void;
  /** Denoises one frame in place (out and in may be the same); returns the frame's speech probability. */
  _rnnoise_process_frame(state: number, out: number, input: number): number;
  _rnnoise_get_frame_size(): number;
}

/** RNNoise works on 10 ms frames at 48 kHz, on sample values at 16-bit scale (±32768). */
const RNNOISE_RATE = 48_000;
const FRAME = 480;
/**
 * RNNoise gives each frame out one frame later (its analysis window spans the previous frame): the
 * output is read from here on, so it lines up with the input (measured: best lag 478 samples).
 */
const DELAY = FRAME;
/**
 * RNNoise's recurrent state needs time to learn the noise: on its own it left the opening pause of a
 * recording barely cleaned (under 5 dB less noise, against 20+ dB in later pauses; 0.5 s of lead-in was
 * not enough, 1 s was). The first second, mirrored, is run first and its output dropped.
 */
const PREROLL = RNNOISE_RATE;
/** Frames denoised between two turns of the event loop: 1 s of audio, ~15 ms of CPU. */
const FRAMES_PER_TURN = 100;

let loading: Promise<RnnoiseModule> | undefined;

/** Loads the WebAssembly module once, on first use (~17 ms); a failed load is tried again next time. */
function loadRnnoise(): Promise<RnnoiseModule> {
  if (loading) return loading;
  const load = (async () => {
    const createModule = (await import('@echogarden/rnnoise-wasm')).default;
    const module = (await createModule()) as RnnoiseModule;
    const frameSize = module._rnnoise_get_frame_size();
    if (frameSize !== FRAME) throw new Error(`RNNoise works on frames of ${frameSize}, not ${FRAME}.`);
    return module;
  })();
  loading = load;
  load.catch(() => {
    if (loading === load) loading = undefined;
  });
  return load;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs RNNoise over 48 kHz samples (at 16-bit scale), lined up with the input. Each call has its own
 * state and buffer in the module's memory, so calls may interleave at their turns of the event loop.
 */
async function suppressNoise(module: RnnoiseModule, audio: Float32Array): Promise<Float32Array> {
  const preroll = Math.min(PREROLL, audio.length);
  const input = new Float32Array(preroll + audio.length);
  input.set(audio.slice(0, preroll).reverse(), 0);
  input.set(audio, preroll);
  const frames = Math.ceil((input.length + DELAY) / FRAME);
  const out = new Float32Array(frames * FRAME);
  const state = module._rnnoise_create(0);
  const pointer = module._malloc(FRAME * 4);
  try {
    const at = pointer >> 2;
    for (let frame = 0; frame < frames; frame++) {
      if (frame > 0 && frame % FRAMES_PER_TURN === 0) await nextTurn();
      const heap = module.HEAPF32;
      heap.fill(0, at, at + FRAME);
      heap.set(input.subarray(frame * FRAME, (frame + 1) * FRAME), at);
      module._rnnoise_process_frame(state, pointer, pointer);
      out.set(module.HEAPF32.subarray(at, at + FRAME), frame * FRAME);
    }
  } finally {
    module._rnnoise_destroy(state);
    module._free(pointer);
  }
  return out.subarray(preroll + DELAY, preroll + DELAY + audio.length);
}

/** A raw mono sample format and rate, as ffmpeg names them. */
interface RawFormat {
  format: 's16le' | 'f32le';
  rate: number;
}

/** Resamples raw mono samples with ffmpeg in the program host. */
async function resample(
  bytes: Uint8Array,
  from: RawFormat,
  to: RawFormat,
  timeoutMs: number,
): Promise<Buffer> {
  const input = [
    '-hide_banner',
    '-v',
    'error',
    '-f',
    from.format,
    '-ar',
    String(from.rate),
    '-ac',
    '1',
    '-i',
    'pipe:0',
  ];
  const output = [
    '-ar',
    String(to.rate),
    '-c:a',
    to.format === 's16le' ? 'pcm_s16le' : 'pcm_f32le',
    '-f',
    to.format,
  ];
  const { stdout, exit, timedOut } = await runMediaTool('ffmpeg', [...input, ...output, 'pipe:1'], {
    input: bytes,
    timeoutMs,
  });
  if (timedOut || exit.code !== 0)
    throw new Error(`ffmpeg could not resample for RNNoise: ${exit.stderr.slice(0, 300)}`);
  return stdout;
}

const bytesOf = (array: Int16Array | Float32Array) =>
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** Mono 16-bit samples as 48 kHz floats at 16-bit scale. */
async function toRnnoiseRate(audio: PcmAudio, timeoutMs: number): Promise<Float32Array> {
  if (audio.sampleRate === RNNOISE_RATE) return Float32Array.from(audio.samples);
  const from = { format: 's16le', rate: audio.sampleRate } as const;
  const stdout = await resample(
    bytesOf(audio.samples),
    from,
    { format: 'f32le', rate: RNNOISE_RATE },
    timeoutMs,
  );
  const floats = new Float32Array(Math.floor(stdout.byteLength / 4));
  Buffer.from(floats.buffer).set(stdout.subarray(0, floats.byteLength));
  return floats.map((v) => v * 32768);
}

/** 48 kHz floats at 16-bit scale back to mono 16-bit samples, exactly `length` of them. */
async function fromRnnoiseRate(
  floats: Float32Array,
  sampleRate: number,
  length: number,
  timeoutMs: number,
): Promise<Int16Array> {
  const out = new Int16Array(length);
  if (sampleRate === RNNOISE_RATE) {
    for (let i = 0; i < length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(floats[i] ?? 0)));
    return out;
  }
  const scaled = floats.map((v) => v / 32768);
  const from = { format: 'f32le', rate: RNNOISE_RATE } as const;
  const stdout = await resample(bytesOf(scaled), from, { format: 's16le', rate: sampleRate }, timeoutMs);
  // Resampling may end a few samples short or long of the input: the length is kept exactly.
  Buffer.from(out.buffer).set(stdout.subarray(0, Math.min(stdout.byteLength, out.byteLength)));
  return out;
}

/**
 * Suppresses background noise in mono speech with RNNoise (WebAssembly, ~65× real time on one core):
 * resampled to 48 kHz and back with ffmpeg, lined up with the input, the same length and rate. The loop
 * yields to the event loop every second of audio; concurrent calls are safe.
 */
export async function denoise(audio: PcmAudio, options: { timeoutMs?: number } = {}): Promise<PcmAudio> {
  if (audio.channels !== 1) throw new Error(`denoise takes mono audio, not ${audio.channels} channels.`);
  const timeoutMs = options.timeoutMs ?? 60_000;
  if (audio.samples.length === 0) return { ...audio, samples: new Int16Array(0) };
  const [module, input] = await Promise.all([loadRnnoise(), toRnnoiseRate(audio, timeoutMs)]);
  const cleaned = await suppressNoise(module, input);
  const samples = await fromRnnoiseRate(cleaned, audio.sampleRate, audio.samples.length, timeoutMs);
  return { sampleRate: audio.sampleRate, channels: 1, samples };
}

/** The embedded denoiser: RNNoise in WebAssembly, in this process. */
export const rnnoiseDenoise: DenoiseProvider = { denoise };
