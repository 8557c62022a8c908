/** Messages between the engine pool and its child processes (structured-clone over IPC). */
export type EngineRequest =
  | { id: number; task: 'ping' }
  | { id: number; task: 'crash' }
  | { id: number; task: 'hang' };

export type EngineReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: string }
  | { ready: true; pid: number };

export type EngineTask = EngineRequest['task'];
