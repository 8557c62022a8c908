/**
 * The engine thread of an engine child: every synthesis runs there, and the child's own thread only
 * relays messages and answers pings. eSpeak's synthesis is synchronous WebAssembly (tens of ms a
 * sentence): on the child's own thread a health ping waited behind it. The thread runs at the work
 * priority, and so does what it starts (a new thread or process takes the nice value of the thread that
 * creates it).
 */
import { parentPort, type Worker } from 'node:worker_threads';
import { runSttRequest } from '../stt/moonshine-engine';
import type { SttEngineRequest } from '../stt/stt-engine-protocol';
import { synthesizeWithESpeak } from '../tts/engines/espeak-engine';
import { synthesizeWithFestival } from '../tts/engines/festival-engine';
import { synthesizeWithFlite } from '../tts/engines/flite-engine';
import { synthesizeWithKokoro } from '../tts/engines/kokoro-engine';
import { type WarmUpRequest, warmNeuralEngines } from '../tts/engines/neural-warm-up';
import { synthesizeWithPiper } from '../tts/engines/piper-engine';
import type { EngineSynthesisRequest, EngineSynthesisResult } from '../tts/tts-provider';
import { childWorker } from './child-entry';
import { lowerPriority } from './work-priority';

/** The workerData that makes the engine child entry serve as the engine thread. */
export const ENGINE_THREAD = 'parla-engine-thread';

/** What the thread runs: a synthesis, speech-to-text work (which has a `kind`), or the neural warm-up. */
type ThreadRequest = EngineSynthesisRequest | SttEngineRequest | WarmUpRequest;

type ThreadReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

interface Thread {
  worker: Worker;
  pending: Map<number, { resolve(result: unknown): void; reject(error: Error): void }>;
}

let thread: Thread | undefined;
let seq = 0;

function startThread(): Thread {
  const worker = childWorker(ENGINE_THREAD);
  const started: Thread = { worker, pending: new Map() };
  worker.on('message', (reply: ThreadReply) => {
    const call = started.pending.get(reply.id);
    if (!call) return;
    started.pending.delete(reply.id);
    if (started.pending.size === 0) worker.unref();
    if (reply.ok) call.resolve(reply.result);
    else call.reject(new Error(reply.error));
  });
  // A thread that died fails the calls it had; the next call starts another.
  const fail = (error: Error) => {
    if (thread === started) thread = undefined;
    for (const call of started.pending.values()) call.reject(error);
    started.pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`The engine thread stopped (exit code ${code}).`)));
  return started;
}

/** Runs a request on the engine thread (started on first use, and again after it died). */
export function runOnThread(request: ThreadRequest): Promise<unknown> {
  thread ??= startThread();
  const { worker, pending } = thread;
  const id = ++seq;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.ref(); // idle, the thread does not keep the process alive
    worker.postMessage({ id, request });
  });
}

function run(request: ThreadRequest): Promise<unknown> {
  if ('warmUp' in request) return warmNeuralEngines();
  if ('kind' in request) return runSttRequest(request);
  return synthesize(request);
}

function synthesize(request: EngineSynthesisRequest): Promise<EngineSynthesisResult> {
  switch (request.engine) {
    case 'espeak':
      return synthesizeWithESpeak(request);
    case 'flite':
      return synthesizeWithFlite(request);
    case 'festival':
      return synthesizeWithFestival(request);
    case 'kokoro':
      return synthesizeWithKokoro(request);
    case 'piper':
      return synthesizeWithPiper(request);
    case 'external':
      return Promise.reject(
        new Error('The external speech server is called from the server, not from an engine.'),
      );
  }
}

/** The thread's side: synthesizes what the child's thread sends. */
export function serveEngineThread(): void {
  lowerPriority(); // this thread only: Linux keeps a nice value per thread
  const port = parentPort;
  port?.on('message', ({ id, request }: { id: number; request: ThreadRequest }) => {
    run(request).then(
      (result) => port.postMessage({ id, ok: true, result } satisfies ThreadReply),
      (error: unknown) =>
        port.postMessage({
          id,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        } satisfies ThreadReply),
    );
  });
}
