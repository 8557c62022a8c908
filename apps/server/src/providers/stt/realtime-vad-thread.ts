/**
 * The realtime voice-activity process (issue 20 item 4; a process of its own since issue 26 item 9): one
 * child process of the server keeps a stateful silero VAD (sherpa-onnx-node) per realtime transcription
 * session, and is fed each session's new 16 kHz audio once, as it arrives — nothing is scanned twice, so a
 * long utterance costs the same per second as a short one (about 0.3 ms of CPU per 32 ms window). The
 * recogniser itself never runs here: it runs in the engine children through the pool (moonshine-stt.ts).
 *
 * Why a process: each detector is an ONNX Runtime session of its own (~5.5 MB, and ~0.15–0.35 s of CPU to
 * make), plus its sample buffer. Native memory freed inside the server's process stayed resident (the C
 * heap keeps it: 200 sessions left ~1 GB behind after they closed); a process that exits gives all of it
 * back, and a crash of the native library costs only the sessions it served. Detectors are reused: a
 * session's is reset and kept for the next session with the same settings (at most POOLED_DETECTORS).
 */
import { createRequire } from 'node:module';
import type { Vad } from 'sherpa-onnx-node';
import { vadModelFile } from './model-files';
import { type RealtimeVadConfig, type RealtimeVadUpdate, STT_SAMPLE_RATE } from './stt-provider';

/** The flag that makes the engine child entry serve as the realtime voice-activity process. */
export const REALTIME_VAD_FLAG = '--realtime-vad';

export type RealtimeVadRequest =
  | { id: number; op: 'open'; session: number; config: RealtimeVadConfig }
  | { id: number; op: 'accept'; session: number; samples: Int16Array }
  | { id: number; op: 'close'; session: number };

export type RealtimeVadReply =
  | { ready: true }
  | { id: number; ok: true; result: RealtimeVadUpdate | null }
  | { id: number; ok: false; error: string };

const WINDOW = 512;
/** A segment longer than this is cut (the session's utterance bound is enforced by the server anyway). */
const MAX_SPEECH_S = 20;
/**
 * The detector's sample buffer (zero-filled, so resident): the speech going on is kept there until its
 * segment ends, which the detector forces soon after MAX_SPEECH_S. One second more than that; a longer
 * segment grows it (sherpa-onnx logs it). It was twice MAX_SPEECH_S: 2.5 MB a session.
 */
const BUFFER_S = MAX_SPEECH_S + 1;
/** Detectors kept, reset, for the sessions to come (each ~5.5 MB; the process exits when idle). */
const POOLED_DETECTORS = 16;

interface SessionVad {
  vad: Vad;
  config: RealtimeVadConfig;
  /** Samples not yet a whole window. */
  rest: Float32Array;
  fed: number;
}

const require = createRequire(import.meta.url);

/** Reset detectors by their settings, for the next session with the same. */
const pool = new Map<string, Vad[]>();
let pooled = 0;

const keyOf = (config: RealtimeVadConfig) =>
  `${config.threshold}/${config.minSpeechSecs}/${config.minSilenceSecs}`;

function openVad(config: RealtimeVadConfig): SessionVad {
  const reused = pool.get(keyOf(config))?.pop();
  if (reused) {
    pooled -= 1;
    return { vad: reused, config, rest: new Float32Array(0), fed: 0 };
  }
  const { Vad } = require('sherpa-onnx-node') as typeof import('sherpa-onnx-node');
  const vad = new Vad(
    {
      sileroVad: {
        model: vadModelFile(),
        threshold: config.threshold,
        minSilenceDuration: config.minSilenceSecs,
        minSpeechDuration: config.minSpeechSecs,
        maxSpeechDuration: MAX_SPEECH_S,
        windowSize: WINDOW,
      },
      sampleRate: STT_SAMPLE_RATE,
      numThreads: 1,
      provider: 'cpu',
      debug: 0,
    },
    BUFFER_S,
  );
  return { vad, config, rest: new Float32Array(0), fed: 0 };
}

/** A closed session's detector: reset and kept for the next session, or let go when enough are kept. */
function closeVad(session: SessionVad): void {
  if (pooled >= POOLED_DETECTORS) return;
  session.vad.reset();
  const key = keyOf(session.config);
  pool.set(key, [...(pool.get(key) ?? []), session.vad]);
  pooled += 1;
}

function accept(session: SessionVad, samples: Int16Array): RealtimeVadUpdate {
  const all = new Float32Array(session.rest.length + samples.length);
  all.set(session.rest);
  for (let i = 0; i < samples.length; i += 1) all[session.rest.length + i] = (samples[i] as number) / 32768;
  let at = 0;
  for (; at + WINDOW <= all.length; at += WINDOW) session.vad.acceptWaveform(all.subarray(at, at + WINDOW));
  session.rest = all.slice(at);
  session.fed += at;
  const segments: RealtimeVadUpdate['segments'] = [];
  while (!session.vad.isEmpty()) {
    const segment = session.vad.front();
    segments.push({ start: segment.start, end: segment.start + segment.samples.length });
    session.vad.pop();
  }
  return { segments, speaking: session.vad.isDetected(), fed: session.fed };
}

/** The process's side: a VAD per session, fed in order; it ends when its parent lets it go (or dies). */
export function serveRealtimeVad(): void {
  const sessions = new Map<number, SessionVad>();
  const reply = (message: RealtimeVadReply) => process.send?.(message);
  process.on('message', (request: RealtimeVadRequest) => {
    try {
      let result: RealtimeVadUpdate | null = null;
      if (request.op === 'open') sessions.set(request.session, openVad(request.config));
      else if (request.op === 'close') {
        const session = sessions.get(request.session);
        sessions.delete(request.session);
        if (session) closeVad(session);
      } else {
        const session = sessions.get(request.session);
        if (!session) throw new Error('unknown session');
        result = accept(session, request.samples);
      }
      reply({ id: request.id, ok: true, result });
    } catch (error) {
      reply({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  });
  process.on('disconnect', () => process.exit(0));
  reply({ ready: true });
}
