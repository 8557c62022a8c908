import { type ChildProcess, fork } from 'node:child_process';
import type { Logger } from 'pino';
import { synthesisBoundMs } from '../tts/engine-synthesis';
import type { EngineSynthesisRequest, EngineSynthesisResult, SynthesisOptions } from '../tts/tts-provider';
import { childEntry } from './child-entry';
import {
  type EngineJob,
  type EngineReply,
  type EngineRequest,
  type EngineTask,
  isEngineWork,
} from './engine-protocol';

/**
 * Why an engine call failed: the child crashed or was killed past its time bound, the pool stopped, the
 * engine refused the text, the caller cancelled it while it waited in the queue, or it waited in the queue
 * past the pool's bound (every engine busy).
 */
export class EngineFailure extends Error {
  constructor(
    readonly reason: 'crashed' | 'timeout' | 'stopped' | 'error' | 'cancelled' | 'busy',
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
  /** The time bound of the work, counted from when a child takes it. */
  timeoutMs: number;
  timer: NodeJS.Timeout | undefined;
  /** Where it runs; none while it waits in the queue. */
  slot: Slot | undefined;
  child: ChildProcess | undefined;
  /** Whose work it is (a workspace): the queue is shared fairly between tenants. */
  tenant: string;
  /** When it joined the queue (performance.now()). */
  queuedAt: number;
  /** Stops listening to the caller's cancel signal once the call has left the queue. */
  unlisten?: () => void;
}

interface Slot {
  child: ChildProcess | undefined;
  ready: boolean;
  pending: Map<number, Call>;
  /** Syntheses among the pending calls. */
  speaking: number;
  /** Consecutive crashes, for the respawn delay. */
  crashes: number;
  /** When the child last answered anything (performance.now()). */
  answeredAt: number;
  /** The round trip of its last heartbeat, in ms. */
  heartbeatMs: number | undefined;
  /** A heartbeat is on its way. */
  beating: boolean;
}

/** What the pool knows of its children without asking them now (see EnginePool.health). */
export interface EnginePoolHealth {
  ok: boolean;
  message: string;
  /** The slowest child's last heartbeat round trip, in ms. */
  heartbeatMs: number | undefined;
  /** Syntheses waiting for a child. */
  queueLength: number;
  /**
   * How long the tenant waiting longest has waited for a child, in ms (0 with none waiting): from when its
   * first waiting call came first in its queue, so calls behind the tenant's own work do not count.
   */
  oldestWaitMs: number;
}

export interface EnginePoolOptions {
  size: number;
  /** The most any one engine call may take once a child runs it (ENGINE_TIMEOUT_MS). */
  timeoutMs: number;
  logger: Logger;
  /** How long a synthesis may wait for a child before it fails as `busy` (default: timeoutMs). */
  queueTimeoutMs?: number;
  /** The pool reports itself saturated (health not ok) once the oldest waiting call waited this long (default 5 s). */
  saturatedWaitMs?: number;
  /** How often each child is pinged (default 1 s). */
  heartbeatMs?: number;
  /** A child that does not answer its heartbeat within this is taken for hung and killed (default 5 s). */
  heartbeatTimeoutMs?: number;
  /**
   * Each new child first loads the neural models the store holds (neural-warm-up.ts), before it takes
   * any synthesis: the first request to reach it neither waits for the load nor has it counted against
   * its time bound (which starts when a child takes the call). Requests go to the children that are warm
   * meanwhile, or wait in the queue. Off by default (tests start many pools); the server turns it on.
   */
  warmUp?: boolean;
}

/**
 * The environment of an engine child: the server's, with glibc's mmap threshold fixed at 1 MB. Left to
 * itself glibc raises that threshold to 32 MB once a large block is freed (the model load frees many),
 * and from then on the tensors of a run without onnxruntime's arena (Piper's until issue 30) come from heaps that keep
 * them: a child holding Kokoro and Piper reached 867 MB after three rounds of short, 150- and
 * 300-character texts, 634 MB with the threshold fixed, Kokoro's CPU per sentence unchanged (1.21 s for
 * 3.98 s of audio; bench/neural-tts.bench.ts, the memory part). An operator's own setting wins.
 */
export function childEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '1048576' };
}

/** The tenant the warm-up runs as: no workspace's id is empty-bracketed. */
const WARM_UP_TENANT = '[warm-up]';
/** The bound of a child's warm-up: a first load may rewrite Kokoro's model (~1 s of CPU, more under load). */
const WARM_UP_TIMEOUT_MS = 180_000;

/**
 * A pool of supervised engine child processes. Every call has a time bound; past it the child is
 * killed. A crash or kill fails only the calls that child was running, and the child is respawned.
 * Each child is also pinged every second: one that stops answering (its own thread stuck, whatever it
 * was asked) is killed and respawned, even when no call is waiting on it.
 */
export class EnginePool {
  private readonly slots: Slot[];
  private next = 0;
  private seq = 0;
  private stopped = false;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Syntheses waiting for a free child: each tenant's in order. */
  private readonly waiting = new Map<string, Call[]>();
  /** Syntheses running now, per tenant. */
  private readonly running = new Map<string, number>();
  /**
   * Since when each tenant's first waiting call has been first (performance.now()): how long the tenant
   * has waited for a child, not counting its calls waiting behind its own work.
   */
  private readonly headSince = new Map<string, number>();
  private readonly entry = childEntry();
  private readonly heartbeatMs: number;
  private readonly heartbeatTimeoutMs: number;

  private readonly queueTimeoutMs: number;
  private readonly saturatedWaitMs: number;

  constructor(private readonly options: EnginePoolOptions) {
    this.heartbeatMs = options.heartbeatMs ?? 1000;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 5000;
    this.queueTimeoutMs = options.queueTimeoutMs ?? options.timeoutMs;
    this.saturatedWaitMs = options.saturatedWaitMs ?? 5000;
    this.slots = Array.from({ length: options.size }, () => ({
      child: undefined,
      ready: false,
      pending: new Map(),
      speaking: 0,
      crashes: 0,
      answeredAt: 0,
      heartbeatMs: undefined,
      beating: false,
    }));
  }

  /** Spawns every child and waits until each has said it is ready; then the heartbeat starts. */
  async start(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.spawn(slot)));
    this.heartbeat ??= setInterval(() => this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Pings every ready child that has no heartbeat on its way; one past its bound is killed (expire). */
  private beat(): void {
    for (const slot of this.slots) {
      if (!slot.ready || !slot.child || slot.beating) continue;
      slot.beating = true;
      const started = performance.now();
      new Promise((resolve, reject) =>
        this.dispatch(this.newCall({ task: 'ping' }, this.heartbeatTimeoutMs, resolve, reject, ''), slot),
      )
        .then(
          () => {
            slot.heartbeatMs = performance.now() - started;
          },
          () => undefined, // a crash or a kill: the exit handler respawns the child
        )
        .finally(() => {
          slot.beating = false;
        });
    }
  }

  /**
   * The children's health from what the supervisor knows, with no round trip now: every child is up and
   * answered within three heartbeats. A /health probe then never queues behind a child's audio on its way
   * back, and a busy child is not asked for more.
   */
  health(): EnginePoolHealth {
    const now = performance.now();
    const stale = 3 * this.heartbeatMs;
    const ready = this.readyCount;
    const silent = this.slots.filter((s) => s.ready && now - s.answeredAt > stale).length;
    const heartbeats = this.slots.flatMap((s) => (s.heartbeatMs === undefined ? [] : [s.heartbeatMs]));
    const heartbeatMs = heartbeats.length > 0 ? Math.max(...heartbeats) : undefined;
    const queued = [...this.waiting.values()].flat();
    const oldestWaitMs = Math.round(Math.max(0, ...[...this.headSince.values()].map((since) => now - since)));
    const base = { heartbeatMs, queueLength: queued.length, oldestWaitMs };
    if (ready < this.size)
      return { ok: false, message: `${ready} of ${this.size} engine processes ready`, ...base };
    if (silent > 0)
      return {
        ok: false,
        message: `${silent} of ${this.size} engine processes did not answer for ${stale / 1000} s`,
        ...base,
      };
    if (oldestWaitMs > this.saturatedWaitMs)
      return {
        ok: false,
        message: `the engines are saturated: ${queued.length} syntheses waiting, a workspace for ${(oldestWaitMs / 1000).toFixed(1)} s`,
        ...base,
      };
    return { ok: true, message: `${this.size} engine processes ready`, ...base };
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
   * the sentences after it, and never waits behind a slow call while another child is free). The queue is
   * fair between tenants: a free child takes the next call of the tenant with the fewest syntheses running
   * (the longest waiting among equals), so one workspace's long text never holds more than its share of
   * the children while another's waits — a newcomer waits at most for one call to end. The time bound
   * counts from when a child takes the call; waiting is bounded by `queueTimeoutMs` (then `busy`). Other
   * tasks (ping, and the test tasks) go at once to the least busy child.
   */
  run(
    task: EngineTask | EngineJob,
    timeoutMs = this.options.timeoutMs,
    options: SynthesisOptions = {},
  ): Promise<unknown> {
    const job: EngineJob = typeof task === 'string' ? ({ task } as EngineJob) : task;
    const { signal } = options;
    if (this.stopped) return Promise.reject(new EngineFailure('stopped', 'The engine pool is stopped.'));
    if (signal?.aborted) return Promise.reject(cancelled());
    return new Promise((resolve, reject) => {
      const call = this.newCall(job, timeoutMs, resolve, reject, options.tenant ?? '');
      if (isEngineWork(job.task)) {
        this.enqueue(call);
        if (signal) {
          // Cancelled while it waits, it leaves the queue; once a child speaks it, it runs to its end.
          const onAbort = () => this.cancel(call);
          signal.addEventListener('abort', onAbort, { once: true });
          call.unlisten = () => signal.removeEventListener('abort', onAbort);
        }
        this.pump();
        return;
      }
      const slot = this.leastBusy();
      if (!slot) {
        reject(new EngineFailure('error', 'No engine process is ready.'));
        return;
      }
      this.dispatch(call, slot);
    });
  }

  /** A call whose time bound starts when a child takes it (dispatch). */
  private newCall(
    job: EngineJob,
    timeoutMs: number,
    resolve: (value: unknown) => void,
    reject: (error: Error) => void,
    tenant: string,
  ): Call {
    return {
      job,
      resolve,
      reject,
      timeoutMs,
      timer: undefined,
      slot: undefined,
      child: undefined,
      tenant,
      queuedAt: performance.now(),
      id: ++this.seq,
    };
  }

  /** Puts a synthesis at the end of its tenant's queue, bounded in how long it may wait there. */
  private enqueue(call: Call): void {
    const queue = this.waiting.get(call.tenant);
    if (queue) queue.push(call);
    else {
      this.waiting.set(call.tenant, [call]);
      this.headSince.set(call.tenant, call.queuedAt);
    }
    call.timer = setTimeout(() => {
      if (!this.dequeue(call)) return;
      call.reject(
        new EngineFailure('busy', `Every speech engine stayed busy for ${this.queueTimeoutMs / 1000} s.`),
      );
    }, this.queueTimeoutMs);
  }

  /** Takes a call out of the queue (false when it was not there): its wait timer and listener go. */
  private dequeue(call: Call): boolean {
    const queue = this.waiting.get(call.tenant);
    const at = queue?.indexOf(call) ?? -1;
    if (!queue || at === -1) return false;
    queue.splice(at, 1);
    if (queue.length === 0) {
      this.waiting.delete(call.tenant);
      this.headSince.delete(call.tenant);
    } else if (at === 0) this.headSince.set(call.tenant, performance.now());
    clearTimeout(call.timer);
    call.unlisten?.();
    return true;
  }

  private cancel(call: Call): void {
    if (this.dequeue(call)) call.reject(cancelled());
  }

  /**
   * The next synthesis to run: the head of the queue of the tenant with the fewest syntheses running,
   * the one waiting longest among equals.
   */
  private nextCall(): Call | undefined {
    let best: Call | undefined;
    let bestRunning = Number.POSITIVE_INFINITY;
    for (const [tenant, queue] of this.waiting) {
      const head = queue[0];
      if (!head) continue;
      const running = this.running.get(tenant) ?? 0;
      if (running < bestRunning || (running === bestRunning && best && head.queuedAt < best.queuedAt)) {
        best = head;
        bestRunning = running;
      }
    }
    return best;
  }

  /** Hands queued syntheses to the children that are free, fairly between tenants. */
  private pump(): void {
    for (;;) {
      const call = this.nextCall();
      if (!call) return;
      const slot = this.leastBusy();
      if (!slot || slot.speaking >= SYNTHESES_PER_CHILD) return;
      this.dequeue(call);
      this.dispatch(call, slot);
    }
  }

  private dispatch(call: Call, slot: Slot): void {
    call.slot = slot;
    call.child = slot.child;
    slot.pending.set(call.id, call);
    if (isEngineWork(call.job.task)) {
      slot.speaking += 1;
      this.running.set(call.tenant, (this.running.get(call.tenant) ?? 0) + 1);
    }
    call.timer = setTimeout(() => this.expire(call), call.timeoutMs);
    slot.child?.send({ ...call.job, id: call.id } as EngineRequest);
  }

  /** Past its time bound a call fails and the child running it is killed. */
  private expire(call: Call): void {
    call.reject(new EngineFailure('timeout', `The engine did not answer within ${call.timeoutMs} ms.`));
    const slot = call.slot;
    if (!slot) return;
    this.settled(slot, call);
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

  /** A call has its answer (or none will come): it leaves its child's list and its tenant's count. */
  private settled(slot: Slot, call: Call): void {
    if (!slot.pending.delete(call.id) || !isEngineWork(call.job.task)) return;
    slot.speaking -= 1;
    const running = (this.running.get(call.tenant) ?? 1) - 1;
    if (running > 0) this.running.set(call.tenant, running);
    else this.running.delete(call.tenant);
  }

  /** The ready child with the fewest syntheses running (round robin among equals). */
  private leastBusy(): Slot | undefined {
    const ready = this.slots.filter((s) => s.ready && s.child);
    const first = this.next++ % Math.max(1, ready.length);
    let best = ready[first];
    for (let k = 1; k < ready.length; k += 1) {
      const slot = ready[(first + k) % ready.length] as Slot;
      if (best && slot.speaking < best.speaking) best = slot;
    }
    return best;
  }

  /**
   * Synthesizes speech in a child process, within the time bound; `signal` cancels it while it still waits
   * for a child.
   */
  synthesize(
    request: EngineSynthesisRequest,
    options: SynthesisOptions = {},
  ): Promise<EngineSynthesisResult> {
    const timeoutMs = options.timeoutMs ?? synthesisBoundMs(request.text.length, this.options.timeoutMs);
    return this.run({ task: 'synthesize', request }, timeoutMs, options) as Promise<EngineSynthesisResult>;
  }

  /** Stops every child; calls still running fail with reason "stopped". */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    for (const call of [...this.waiting.values()].flat()) {
      this.dequeue(call);
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

  /**
   * Gives a new child its warm-up before anything else (it counts as the one synthesis the child runs,
   * so pump() passes it by until it ends) and logs what each model's load took.
   */
  private warmUp(slot: Slot): void {
    const started = performance.now();
    const pid = slot.child?.pid;
    new Promise((resolve, reject) =>
      this.dispatch(
        this.newCall({ task: 'warm-up' }, WARM_UP_TIMEOUT_MS, resolve, reject, WARM_UP_TENANT),
        slot,
      ),
    ).then(
      (models) =>
        this.options.logger.info(
          { pid, ms: Math.round(performance.now() - started), models },
          'engine process warmed up',
        ),
      (error: unknown) =>
        // A crash or a kill: the exit handler respawns the child, which warms up again.
        this.options.logger.warn({ pid, err: error }, 'engine process warm-up failed'),
    );
  }

  private spawn(slot: Slot): Promise<void> {
    return new Promise((resolve) => {
      const child = fork(this.entry.file, [], {
        execArgv: this.entry.execArgv,
        env: childEnvironment(),
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
        slot.answeredAt = performance.now();
        if ('ready' in message) {
          slot.ready = true;
          slot.crashes = 0;
          if (this.options.warmUp) this.warmUp(slot);
          resolve();
          this.pump();
          return;
        }
        const pending = slot.pending.get(message.id);
        if (!pending) return;
        this.settled(slot, pending);
        clearTimeout(pending.timer);
        if (message.ok) pending.resolve(message.result);
        else pending.reject(new EngineFailure('error', message.error));
        this.pump();
      });
      child.on('error', (error) => this.options.logger.error({ err: error }, 'engine process error'));
      child.on('exit', (code, signal) => {
        slot.ready = false;
        if (slot.child === child) slot.child = undefined;
        for (const pending of [...slot.pending.values()]) {
          clearTimeout(pending.timer);
          this.settled(slot, pending);
          pending.reject(
            new EngineFailure('crashed', 'The engine process stopped while working on this request.'),
          );
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

const cancelled = () => new EngineFailure('cancelled', 'The synthesis was cancelled before it started.');
