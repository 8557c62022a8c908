/**
 * The realtime voice-activity thread (issue 20 item 4): one worker thread of the server process keeps a
 * stateful silero VAD (sherpa-onnx-node) per realtime transcription session, and is fed each session's
 * new 16 kHz audio once, as it arrives — nothing is scanned twice, so a long utterance costs the same per
 * second as a short one (about 0.3 ms of CPU per 32 ms window). The recogniser itself never runs here: it
 * runs in the engine children through the pool (moonshine-stt.ts).
 */
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import type { Vad } from 'sherpa-onnx-node';
import { vadModelFile } from './model-files';
import { STT_SAMPLE_RATE } from './stt-engine-protocol';

/** The workerData that makes the engine child entry serve as the realtime voice-activity thread. */
export const REALTIME_VAD_THREAD = 'parla-realtime-vad-thread';

/** What a session's voice activity is tuned by (the realtime query's VAD parameters). */
export interface RealtimeVadConfig {
  /** Speech probability above which a window is speech (`vad_threshold`). */
  threshold: number;
  minSpeechSecs: number;
  minSilenceSecs: number;
}

export type RealtimeVadRequest =
  | { id: number; op: 'open'; session: number; config: RealtimeVadConfig }
  | { id: number; op: 'accept'; session: number; samples: Float32Array }
  | { id: number; op: 'close'; session: number };

/** Speech found so far: segments that ended (absolute samples from the session's start), and now. */
export interface RealtimeVadUpdate {
  segments: { start: number; end: number }[];
  /** Speech is going on at the end of the audio fed so far. */
  speaking: boolean;
  /** Samples fed so far (the VAD's own clock). */
  fed: number;
}

export type RealtimeVadReply =
  | { id: number; ok: true; result: RealtimeVadUpdate | null }
  | { id: number; ok: false; error: string };

const WINDOW = 512;
/** A segment longer than this is cut (the session's utterance bound is enforced by the server anyway). */
const MAX_SPEECH_S = 20;

interface SessionVad {
  vad: Vad;
  /** Samples not yet a whole window. */
  rest: Float32Array;
  fed: number;
}

const require = createRequire(import.meta.url);

function openVad(config: RealtimeVadConfig): SessionVad {
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
    MAX_SPEECH_S * 2,
  );
  return { vad, rest: new Float32Array(0), fed: 0 };
}

function accept(session: SessionVad, samples: Float32Array): RealtimeVadUpdate {
  const all = new Float32Array(session.rest.length + samples.length);
  all.set(session.rest);
  all.set(samples, session.rest.length);
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

/** The thread's side: a VAD per session, fed in order. */
export function serveRealtimeVad(): void {
  const sessions = new Map<number, SessionVad>();
  const port = parentPort;
  port?.on('message', (request: RealtimeVadRequest) => {
    try {
      let result: RealtimeVadUpdate | null = null;
      if (request.op === 'open') sessions.set(request.session, openVad(request.config));
      else if (request.op === 'close') sessions.delete(request.session);
      else {
        const session = sessions.get(request.session);
        if (!session) throw new Error('unknown session');
        result = accept(session, request.samples);
      }
      port.postMessage({ id: request.id, ok: true, result } satisfies RealtimeVadReply);
    } catch (error) {
      port.postMessage({
        id: request.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      } satisfies RealtimeVadReply);
    }
  });
}
