import { type ChildProcess, fork } from 'node:child_process';
import type { Logger } from 'pino';
import type { EngineSynthesisRequest, EngineSynthesisResult } from '../tts/engine-synthesis';
import { childEntry } from './child-entry';
import type { EngineJob, EngineReply, EngineRequest, EngineTask } from './engine-protocol';

/** Why an engine call failed: the child crashed or was killed past its time bound. */
export class EngineFailure extends Error {
  constructor(
    readonly reason: 'crashed' | 'timeout' | 'stopped' | 'error',
    message: string,
  ) {
    super(message);
    this.name = 'EngineFailure';
  }
}

/** Syntheses a child is given at once: one, since it speaks one at a time anyway (see run). */
const SYNTHESES_PER_CHILD = 1;

interface Call {
  id: number;
  job: EngineJob;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timeoutMs: number;
  timer: NodeJS.Timeout | undefined;
  /** Where it runs; none while it waits in the queue. */
  slot: Slot | undefined;
  child: ChildProcess | undefined;
}

interface Slot {
  child: ChildProcess | undefined;
  ready: boolean;
  pending: Map<number, Call>;
  /** Consecutive crashes, for the respawn delay. */
  crashes: number;
}

/**
 * A pool of supervised engine child processes. Every call has a time bound; past it the child is
 * killed. A crash or kill fails only the calls that child was running, and the child is respawned.
 */
export class EnginePool {
  private readonly slots: Slot[];
  private next = 0;
  private seq = 0;
  private stopped = false;
  /** Syntheses waiting for a free child, in order. */
  private readonly queue: Call[] = [];
  private readonly entry = childEntry();

  constructor(private readonly options: { size: number; timeoutMs: number; logger: Logger }) {
    this.slots = Array.from({ length: options.size }, () => ({
      child: undefined,
      ready: false,
      pending: new Map(),
      crashes: 0,
    }));
  }

  /** Spawns every child and waits until each has said it is ready. */
  async start(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.spawn(slot)));
  }

  /** Children that are up and ready. */
  get readyCount(): number {
    return this.slots.filter((s) => s.ready).length;
  }

  get size(): number {
    return this.slots.length;
  }

  /**
   * Runs a task within its time bound. Syntheses wait in the pool's queue for a child with none running
   * (each child speaks one at a time, on a core of its own: a first sentence never shares its core with
   * the sentences after it, and never waits behind a slow call while another child is free); the time
   * bound counts from the call. Other tasks (ping, and the test tasks) go at once to the least busy
   * child.
   */
  run(task: EngineTask | EngineJob, timeoutMs = this.options.timeoutMs): Promise<unknown> {
    const job: EngineJob = typeof task === 'string' ? ({ task } as EngineJob) : task;
    if (this.stopped) return Promise.reject(new EngineFailure('stopped', 'The engine pool is stopped.'));
    return new Promise((resolve, reject) => {
      const call: Call = {
        job,
        resolve,
        reject,
        timeoutMs,
        timer: undefined,
        slot: undefined,
        child: undefined,
        id: ++this.seq,
      };
      call.timer = setTimeout(() => this.expire(call), timeoutMs);
      if (job.task === 'synthesize') {
        this.queue.push(call);
        this.pump();
        return;
      }
      const slot = this.leastBusy();
      if (!slot) {
        clearTimeout(call.timer);
        reject(new EngineFailure('error', 'No engine process is ready.'));
        return;
      }
      this.dispatch(call, slot);
    });
  }

  /** Hands queued syntheses to the children that are free. */
  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.leastBusy();
      if (!slot || slot.pending.size >= SYNTHESES_PER_CHILD) return;
      this.dispatch(this.queue.shift() as Call, slot);
    }
  }

  private dispatch(call: Call, slot: Slot): void {
    call.slot = slot;
    call.child = slot.child;
    slot.pending.set(call.id, call);
    slot.child?.send({ ...call.job, id: call.id } as EngineRequest);
  }

  /** Past its time bound a call fails; if a child was running it, that child is killed. */
  private expire(call: Call): void {
    call.reject(new EngineFailure('timeout', `The engine did not answer within ${call.timeoutMs} ms.`));
    const slot = call.slot;
    if (!slot) {
      this.queue.splice(this.queue.indexOf(call), 1);
      return;
    }
    slot.pending.delete(call.id);
    const child = call.child;
    if (!child || slot.child !== child) return;
    this.options.logger.warn(
      { pid: child.pid, task: call.job.task },
      'engine call timed out; killing its process',
    );
    // No new call may be routed to a child that is being killed; the exit handler respawns it.
    slot.ready = false;
    child.kill('SIGKILL');
  }

  /** The ready child with the fewest calls running (round robin among equals). */
  private leastBusy(): Slot | undefined {
    const ready = this.slots.filter((s) => s.ready && s.child);
    const first = this.next++ % Math.max(1, ready.length);
    let best = ready[first];
    for (let k = 1; k < ready.length; k += 1) {
      const slot = ready[(first + k) % ready.length] as Slot;
      if (best && slot.pending.size < best.pending.size) best = slot;
    }
    return best;
  }

  /** Synthesizes speech in a child process, within the time bound. */
  synthesize(request: EngineSynthesisRequest, timeoutMs?: number): Promise<EngineSynthesisResult> {
    return this.run({ task: 'synthesize', request }, timeoutMs) as Promise<EngineSynthesisResult>;
  }

  /** Stops every child; calls still running fail with reason "stopped". */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const call of this.queue.splice(0)) {
      clearTimeout(call.timer);
      call.reject(new EngineFailure('stopped', 'The engine pool is stopped.'));
    }
    await Promise.all(
      this.slots.map(async (slot) => {
        const child = slot.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }),
    );
  }

  private spawn(slot: Slot): Promise<void> {
    return new Promise((resolve) => {
      const child = fork(this.entry.file, [], {
        execArgv: this.entry.execArgv,
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      slot.child = child;
      slot.ready = false;
      child.stderr?.on('data', (chunk: Buffer) =>
        this.options.logger.debug(
          { pid: child.pid, stderr: chunk.toString().slice(0, 500) },
          'engine stderr',
        ),
      );
      child.on('message', (message: EngineReply) => {
        if ('ready' in message) {
          slot.ready = true;
          slot.crashes = 0;
          resolve();
          this.pump();
          return;
        }
        const pending = slot.pending.get(message.id);
        if (!pending) return;
        slot.pending.delete(message.id);
        clearTimeout(pending.timer);
        if (message.ok) pending.resolve(message.result);
        else pending.reject(new EngineFailure('error', message.error));
        this.pump();
      });
      child.on('error', (error) => this.options.logger.error({ err: error }, 'engine process error'));
      child.on('exit', (code, signal) => {
        slot.ready = false;
        if (slot.child === child) slot.child = undefined;
        for (const [id, pending] of slot.pending) {
          clearTimeout(pending.timer);
          pending.reject(
            new EngineFailure('crashed', 'The engine process stopped while working on this request.'),
          );
          slot.pending.delete(id);
        }
        resolve();
        if (this.stopped) return;
        slot.crashes++;
        const delay = Math.min(5000, 50 * 2 ** (slot.crashes - 1));
        this.options.logger.warn(
          { pid: child.pid, code, signal, respawnInMs: delay },
          'engine process exited; respawning',
        );
        setTimeout(() => {
          if (!this.stopped) void this.spawn(slot);
        }, delay).unref();
      });
    });
  }
}
