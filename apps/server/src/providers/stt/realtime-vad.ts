import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { childEntry } from '../engines/child-entry';
import {
  REALTIME_VAD_THREAD,
  type RealtimeVadConfig,
  type RealtimeVadReply,
  type RealtimeVadRequest,
  type RealtimeVadUpdate,
} from './realtime-vad-thread';

/*
 * The server's side of the realtime voice-activity thread (realtime-vad-thread.ts): started on the first
 * session, shared by all of this process's sessions, and started again by the next session after it died
 * (the sessions it served fail with their protocol's transcriber error; nothing else is affected).
 */

type RequestBody = RealtimeVadRequest extends infer R
  ? R extends RealtimeVadRequest
    ? Omit<R, 'id'>
    : never
  : never;

interface Thread {
  worker: Worker;
  pending: Map<number, { resolve(result: RealtimeVadUpdate | null): void; reject(error: Error): void }>;
}

let thread: Thread | undefined;
let seq = 0;
let sessions = 0;

function startThread(): Thread {
  const entry = childEntry();
  const worker =
    entry.execArgv.length > 0
      ? new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(entry.file).href)}); });`,
          { eval: true, workerData: REALTIME_VAD_THREAD },
        )
      : new Worker(entry.file, { workerData: REALTIME_VAD_THREAD });
  worker.unref();
  const started: Thread = { worker, pending: new Map() };
  worker.on('message', (reply: RealtimeVadReply) => {
    const call = started.pending.get(reply.id);
    if (!call) return;
    started.pending.delete(reply.id);
    if (reply.ok) call.resolve(reply.result);
    else call.reject(new Error(reply.error));
  });
  const fail = (error: Error) => {
    if (thread === started) thread = undefined;
    for (const call of started.pending.values()) call.reject(error);
    started.pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`The voice-activity thread stopped (exit code ${code}).`)));
  return started;
}

function call(body: RequestBody, transfer: ArrayBuffer[] = []): Promise<RealtimeVadUpdate | null> {
  thread ??= startThread();
  const { worker, pending } = thread;
  const id = ++seq;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ ...body, id }, transfer);
  });
}

/** One session's voice activity: feed it the session's 16 kHz audio in order. */
export interface RealtimeVoiceActivity {
  /** Feeds the next samples (16 kHz); resolves with the speech segments that ended and whether speech goes on. */
  accept(samples: Int16Array): Promise<RealtimeVadUpdate>;
  close(): void;
}

/** Opens a session's voice activity in the shared thread. */
export async function openRealtimeVoiceActivity(config: RealtimeVadConfig): Promise<RealtimeVoiceActivity> {
  const session = ++sessions;
  await call({ op: 'open', session, config });
  let closed = false;
  return {
    async accept(samples) {
      const floats = new Float32Array(samples.length);
      for (let i = 0; i < samples.length; i += 1) floats[i] = (samples[i] as number) / 32768;
      const update = await call({ op: 'accept', session, samples: floats }, [floats.buffer]);
      return update as RealtimeVadUpdate;
    },
    close() {
      if (closed) return;
      closed = true;
      call({ op: 'close', session }).catch(() => undefined);
    },
  };
}

/** Stops the thread (tests, shutdown): sessions still open fail. */
export async function stopRealtimeVoiceActivity(): Promise<void> {
  const running = thread;
  thread = undefined;
  if (running) await running.worker.terminate();
}
