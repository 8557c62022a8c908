import { type ChildProcess, fork } from 'node:child_process';
import { assertModelAvailable } from '../../platform/models/model-store';
import { childEntry } from '../engines/child-entry';
import { REALTIME_VAD_FLAG, type RealtimeVadReply, type RealtimeVadRequest } from './realtime-vad-thread';
import type { RealtimeVadConfig, RealtimeVadUpdate, RealtimeVoiceActivity } from './stt-provider';

/*
 * The server's side of the realtime voice-activity process (realtime-vad-thread.ts): started by the first
 * session, shared by all of this server's sessions, and let go once no session has used it for
 * IDLE_EXIT_MS — its exit gives the detectors' native memory back to the system (issue 26 item 9). A
 * process that died is started again by the next session; the sessions it served fail with their
 * protocol's transcriber error, nothing else is affected.
 */

/** How long the process outlives its last session (a session opened meanwhile keeps it). */
export const IDLE_EXIT_MS = 10_000;
let idleExitMs = IDLE_EXIT_MS;

/** Tests: how long the process outlives its last session (IDLE_EXIT_MS again with no argument). */
export function setVoiceActivityIdleExit(ms = IDLE_EXIT_MS): void {
  idleExitMs = ms;
}

type RequestBody = RealtimeVadRequest extends infer R
  ? R extends RealtimeVadRequest
    ? Omit<R, 'id'>
    : never
  : never;

interface Call {
  resolve(result: RealtimeVadUpdate | null): void;
  reject(error: Error): void;
}

/** One voice-activity process and the sessions it serves. */
class VadHost {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Call>();
  private seq = 0;
  /** Sessions open here (their detectors held in the process). */
  sessions = 0;
  private idle: NodeJS.Timeout | undefined;
  /** Why it can take no more calls (it exited, or was let go). */
  private gone: Error | undefined;
  readonly ready: Promise<void>;

  constructor() {
    const entry = childEntry();
    this.child = fork(entry.file, [REALTIME_VAD_FLAG], {
      execArgv: entry.execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // Neither the process nor its channel keeps the server running; it exits when the server does.
    this.child.unref();
    (this.child.channel as { unref?: () => void } | undefined)?.unref?.();
    let ready: () => void = () => undefined;
    let failed: (error: Error) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    this.ready.catch(() => undefined);
    this.child.on('message', (reply: RealtimeVadReply) => {
      if ('ready' in reply) {
        ready();
        return;
      }
      const call = this.pending.get(reply.id);
      if (!call) return;
      this.pending.delete(reply.id);
      if (reply.ok) call.resolve(reply.result);
      else call.reject(new Error(reply.error));
    });
    this.child.on('error', () => undefined); // its exit follows
    this.child.on('exit', (code, signal) => {
      const error = new Error(`The voice-activity process stopped (${signal ?? `exit code ${code}`}).`);
      this.gone ??= error;
      if (host === this) host = undefined;
      clearTimeout(this.idle);
      failed(error);
      for (const call of this.pending.values()) call.reject(error);
      this.pending.clear();
    });
  }

  async call(body: RequestBody): Promise<RealtimeVadUpdate | null> {
    await this.ready;
    if (this.gone) throw this.gone;
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ ...body, id });
    });
  }

  opened(): void {
    this.sessions += 1;
    clearTimeout(this.idle);
  }

  closed(): void {
    this.sessions -= 1;
    if (this.sessions > 0) return;
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.letGo(), idleExitMs);
    this.idle.unref();
  }

  /** No session left: the next one starts a new process; this one ends once it has answered. */
  private letGo(): void {
    if (this.sessions > 0 || this.gone) return;
    this.gone = new Error('The voice-activity process was let go.');
    if (host === this) host = undefined;
    if (this.child.connected) this.child.disconnect();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  kill(): void {
    this.gone ??= new Error('The voice-activity process was stopped.');
    if (host === this) host = undefined;
    this.child.kill('SIGKILL');
  }
}

let host: VadHost | undefined;
let sessionSeq = 0;

/** Opens a session's voice activity in the shared process (started if need be). */
export async function openRealtimeVoiceActivity(config: RealtimeVadConfig): Promise<RealtimeVoiceActivity> {
  // No session on a damaged or missing silero model: the caller is told why.
  assertModelAvailable('silero-vad');
  host ??= new VadHost();
  // The session stays with this process: if it dies, the session fails (it does not move to a new one).
  const served = host;
  const session = ++sessionSeq;
  served.opened();
  try {
    await served.call({ op: 'open', session, config });
  } catch (error) {
    served.closed();
    throw error;
  }
  let closed = false;
  return {
    async accept(samples) {
      // Sent by structured clone, which copies a view's whole buffer: a view is cut to its own first.
      const own =
        samples.byteOffset === 0 && samples.byteLength === samples.buffer.byteLength
          ? samples
          : samples.slice();
      return (await served.call({ op: 'accept', session, samples: own })) as RealtimeVadUpdate;
    },
    close() {
      if (closed) return;
      closed = true;
      served.call({ op: 'close', session }).catch(() => undefined);
      served.closed();
    },
  };
}

/** The voice-activity process running now, if any, and the sessions it serves (tests, diagnostics). */
export function voiceActivityProcess(): { pid: number | undefined; sessions: number } | undefined {
  return host && { pid: host.pid, sessions: host.sessions };
}

/** Stops the process (tests, shutdown): sessions still open fail. */
export function stopRealtimeVoiceActivity(): void {
  host?.kill();
}
