import type { SttEngineRequest } from '../stt/stt-engine-protocol';
import type { EngineSynthesisRequest } from '../tts/tts-provider';

/** Messages between the engine pool and its child processes (structured-clone over IPC). */
export type EngineRequest =
  | { id: number; task: 'ping' }
  | { id: number; task: 'crash' }
  | { id: number; task: 'hang' }
  | { id: number; task: 'synthesize'; request: EngineSynthesisRequest }
  | { id: number; task: 'stt'; request: SttEngineRequest }
  /** Load the neural models the store holds, off the request path (neural-warm-up.ts). */
  | { id: number; task: 'warm-up' };

/** A request without its id: what callers of the pool hand over. */
export type EngineJob = EngineRequest extends infer R
  ? R extends EngineRequest
    ? Omit<R, 'id'>
    : never
  : never;

export type EngineReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: string }
  | { ready: true; pid: number };

export type EngineTask = EngineRequest['task'];

/**
 * The tasks that are engine work: one at a time per child (a child warming up takes no synthesis); the
 * requests among them are queued fairly between tenants.
 */
export function isEngineWork(task: EngineTask): boolean {
  return task === 'synthesize' || task === 'stt' || task === 'warm-up';
}
