/**
 * The neural models' ONNX Runtime sessions (onnxruntime-node, CPU), in the engine thread of an engine
 * child: each model file is opened once per child and kept, with its threads bounded. sherpa-onnx-node
 * (the speech-to-text runtime) was tried first: it refuses both model files, which carry none of its own
 * metadata (`'sample_rate' does not exist in the metadata`), and exits the process when it does.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { InferenceSession } from 'onnxruntime-node';

const require = createRequire(import.meta.url);
let runtime: typeof import('onnxruntime-node') | undefined;

/** onnxruntime-node, loaded on first use (its native library costs a child that never speaks neurally). */
export function onnxRuntime(): typeof import('onnxruntime-node') {
  runtime ??= require('onnxruntime-node') as typeof import('onnxruntime-node');
  return runtime;
}

/**
 * Threads per model run (TTS_THREADS, default 1): each engine child speaks one sentence at a time and the
 * pool runs one child per core, so one thread each keeps every core busy without the children's threads
 * fighting over them.
 */
export const TTS_THREADS = Math.max(1, Math.min(4, Number(process.env.TTS_THREADS) || 1));

const sessions = new Map<string, Promise<InferenceSession>>();

/**
 * How a model's session holds its working memory. `arena`: onnxruntime's memory arena, which keeps every
 * block it ever took and grows in powers of two. Kokoro keeps it: without it a run took 22% more CPU
 * (2 M page faults for 57 s of audio, the same memory given back and faulted in again) and Kokoro is the
 * model whose real-time factor is tight. Piper keeps it too since issue 30, where it is Studio's default
 * voice: bench/studio.bench.ts, the same 11,358-character book through the pool at load 6–8, arena on
 * 0.047 CPU-s per audio-s against 0.093 off (34.8× against 19.4× real time for the whole conversion with
 * both cores idle), for children peaking at 651/638 MB against 583/612 MB (+68 and +26 MB). Before, Piper
 * went without: its arena grew by 180 MB over sentences of up to 150 characters, against ~10 MB after a
 * run without it (bench/neural-tts.bench.ts, memory part); but in a long conversion the children grew by
 * 120–150 MB without it as well (the C heap), so the arena's own cost is the tens of MB above.
 */
export interface SessionMemory {
  arena: boolean;
}

/**
 * A session on a model file, opened once and kept. A missing or unreadable file fails with `what` named
 * in the message; a failed open is not kept, so files the store puts back later are opened then. Always
 * from the file's path: a session made from bytes in memory left those bytes' memory held by the child.
 */
export function modelSession(
  file: string,
  what: string,
  memory: SessionMemory = { arena: true },
): Promise<InferenceSession> {
  let session = sessions.get(file);
  if (!session) {
    session = (async () => {
      if (!fs.existsSync(file)) throw new Error(`The ${what} model is not installed (${file} is missing).`);
      try {
        // Memory patterns go: planned per input shape, each new sentence length added its own plan,
        // 470 → 625 MB over eight sentences (bench/neural-tts.bench.ts).
        const options = {
          intraOpNumThreads: TTS_THREADS,
          interOpNumThreads: 1,
          executionMode: 'sequential',
          graphOptimizationLevel: 'all',
          enableCpuMemArena: memory.arena,
          enableMemPattern: false,
          logSeverityLevel: 3,
        } as const;
        return await onnxRuntime().InferenceSession.create(file, options);
      } catch (error) {
        throw new Error(
          `The ${what} model could not be loaded from ${file}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    })();
    sessions.set(file, session);
    session.catch(() => sessions.delete(file));
  }
  return session;
}

/** The float samples (−1…1) of a model's runs, one after the other, as signed 16-bit PCM. */
export function toPcm16(runs: readonly Float32Array[]): Int16Array {
  const samples = new Int16Array(runs.reduce((sum, run) => sum + run.length, 0));
  let at = 0;
  for (const run of runs)
    for (let i = 0; i < run.length; i += 1, at += 1)
      samples[at] = Math.round(Math.max(-1, Math.min(1, run[i] ?? 0)) * 32767);
  return samples;
}

/**
 * Where the speech is in a synthesis, in ms: from the first to the last sample louder than about −40 dBFS
 * (the models lead in and trail off with near silence). The neural models report no times of their own,
 * so their words are spread over this span (`timing: 'estimated'`).
 */
export function spokenSpanMs(samples: Int16Array, sampleRate: number): { fromMs: number; toMs: number } {
  const threshold = 330;
  let first = 0;
  while (first < samples.length && Math.abs(samples[first] ?? 0) < threshold) first += 1;
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last] ?? 0) < threshold) last -= 1;
  if (first >= samples.length) return { fromMs: 0, toMs: Math.round((samples.length / sampleRate) * 1000) };
  return {
    fromMs: Math.round((first / sampleRate) * 1000),
    toMs: Math.round(((last + 1) / sampleRate) * 1000),
  };
}
