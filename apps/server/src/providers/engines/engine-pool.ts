import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { EngineSynthesisRequest, EngineSynthesisResult } from '../tts/engine-synthesis';
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

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface Slot {
  child: ChildProcess | undefined;
  ready: boolean;
  pending: Map<number, Pending>;
  /** Consecutive crashes, for the respawn delay. */
  crashes: number;
}

/** The child entry: the TypeScript source under tsx, the bundled file in a build. */
function childEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts'))
    return { file: path.join(path.dirname(here), 'engine-child.ts'), execArgv: ['--import', 'tsx'] };
  const bundled = path.join(path.dirname(here), 'engine-child.js');
  if (!fs.existsSync(bundled)) throw new Error(`Engine child entry not found at ${bundled}`);
  return { file: bundled, execArgv: [] };
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

  /** Runs a task on the next ready child (round robin). */
  run(task: EngineTask | EngineJob, timeoutMs = this.options.timeoutMs): Promise<unknown> {
    const job: EngineJob = typeof task === 'string' ? ({ task } as EngineJob) : task;
    if (this.stopped) return Promise.reject(new EngineFailure('stopped', 'The engine pool is stopped.'));
    const ready = this.slots.filter((s) => s.ready && s.child);
    const slot = ready[this.next++ % Math.max(1, ready.length)];
    if (!slot?.child) return Promise.reject(new EngineFailure('error', 'No engine process is ready.'));
    const child = slot.child;
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        slot.pending.delete(id);
        reject(new EngineFailure('timeout', `The engine did not answer within ${timeoutMs} ms.`));
        this.options.logger.warn(
          { pid: child.pid, task: job.task },
          'engine call timed out; killing its process',
        );
        // No new call may be routed to a child that is being killed; the exit handler respawns it.
        if (slot.child === child) slot.ready = false;
        child.kill('SIGKILL');
      }, timeoutMs);
      slot.pending.set(id, { resolve, reject, timer });
      child.send({ ...job, id } as EngineRequest);
    });
  }

  /** Synthesizes speech in a child process, within the time bound. */
  synthesize(request: EngineSynthesisRequest, timeoutMs?: number): Promise<EngineSynthesisResult> {
    return this.run({ task: 'synthesize', request }, timeoutMs) as Promise<EngineSynthesisResult>;
  }

  /** Stops every child; calls still running fail with reason "stopped". */
  async stop(): Promise<void> {
    this.stopped = true;
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
          return;
        }
        const pending = slot.pending.get(message.id);
        if (!pending) return;
        slot.pending.delete(message.id);
        clearTimeout(pending.timer);
        if (message.ok) pending.resolve(message.result);
        else pending.reject(new EngineFailure('error', message.error));
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
