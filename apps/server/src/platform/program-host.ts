/**
 * A small child process that runs programs for its parent (ffmpeg for the server; flite, festival and
 * ffmpeg for an engine child), their input and output relayed over IPC. Starting a program forks the
 * process that starts it, and a fork costs time in proportion to that process's memory, all of it on its
 * event loop (and it stalls the process's other threads): ~5 ms from a 50 MB process, ~25 ms from the
 * server at 570 MB with its embedded database (measured). The host is small, so its parent never pays
 * for a fork; it can keep a program started ahead of need ("warm"), which has loaded its libraries
 * already (Debian's ffmpeg takes ~0.1 s of CPU to start); and when its parent dies, however it dies, the
 * host sees its channel close and kills every program it runs.
 */
import { type ChildProcess, fork, type SpawnOptions, spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { childEntry } from '../providers/engines/child-entry';
import { lowerPriority } from '../providers/engines/work-priority';

/** The flag that makes the engine child entry serve as the program host. */
export const PROGRAM_HOST_FLAG = '--program-host';

type HostRequest =
  | { op: 'start'; id: number; file: string; args: string[]; timeoutMs: number | undefined; warm: boolean }
  | { op: 'write'; id: number; data: Uint8Array }
  | { op: 'end'; id: number }
  | { op: 'kill'; id: number };

type HostReply =
  | { op: 'ready' }
  | { op: 'data'; id: number; data: Uint8Array }
  | { op: 'exit'; id: number; code: number | null; signal: string | null; stderr: string; error?: string };

/** How a program ended: its exit code or signal and the end of what it wrote to stderr. */
export interface ProgramExit {
  code: number | null;
  signal: string | null;
  stderr: string;
  /** Set when it could not run at all (not found, or the host stopped). */
  error?: string;
}

/** A program running in the host. */
export interface ProgramRun {
  write(data: Uint8Array): void;
  /** Ends its standard input. */
  end(): void;
  kill(): void;
  /** Its standard output. */
  output: Readable;
  /** When it has ended and its output has all been delivered. */
  exit: Promise<ProgramExit>;
}

interface RunState {
  output: PassThrough;
  settle(exit: ProgramExit): void;
}

/**
 * Input goes to the host in pieces of at most this size, one piece per turn of the event loop once a
 * write is large: serialising a whole long audio (megabytes) at once would hold the server's loop.
 */
const PIECE_BYTES = 256 * 1024;

/** The parent's side: forks the host on first use, and again after it died. */
export class ProgramHost {
  private child: ChildProcess | undefined;
  /** The host has said it listens (messages sent before would be lost). */
  private ready = false;
  /** Messages not sent yet, in order. */
  private outbox: HostRequest[] = [];
  private draining = false;
  private seq = 0;
  private readonly runs = new Map<number, RunState>();

  /**
   * Runs a program with a time bound (SIGKILL past it; none for a long-lived program that bounds its own
   * calls). `warm` takes a copy started ahead with the same arguments if there is one, and starts the
   * next ahead of need.
   */
  run(file: string, args: string[], options: { timeoutMs?: number; warm?: boolean } = {}): ProgramRun {
    const child = this.ensureChild();
    const id = ++this.seq;
    const output = new PassThrough();
    let settle: (exit: ProgramExit) => void = () => undefined;
    const exit = new Promise<ProgramExit>((resolve) => {
      settle = resolve;
    });
    this.runs.set(id, { output, settle });
    this.refresh();
    // After the host died, the run has failed already: nothing more to send.
    const post = (request: HostRequest) => {
      if (this.child === child) this.post(request);
    };
    post({ op: 'start', id, file, args, timeoutMs: options.timeoutMs, warm: options.warm ?? false });
    return {
      write: (data) => {
        for (let at = 0; at < data.byteLength; at += PIECE_BYTES) {
          post({ op: 'write', id, data: data.subarray(at, Math.min(data.byteLength, at + PIECE_BYTES)) });
        }
      },
      end: () => post({ op: 'end', id }),
      kill: () => {
        // What it was still to be given is dropped; the kill keeps its place after the start.
        this.outbox = this.outbox.filter((m) => m.id !== id || m.op === 'start');
        post({ op: 'kill', id });
      },
      output,
      exit,
    };
  }

  /** Starts the host ahead of its first program (a fork from a large process stalls it for a moment). */
  start(): void {
    this.ensureChild();
    this.refresh();
  }

  /** Stops the host: it kills every program it runs; what ran there fails. */
  stop(): void {
    const child = this.child;
    if (!child) return;
    if (child.connected) child.disconnect();
    else child.kill('SIGKILL');
  }

  /** Sends at once when nothing waits and the message is small; else queues it behind the others. */
  private post(request: HostRequest): void {
    const child = this.child;
    const large = request.op === 'write' && request.data.byteLength >= PIECE_BYTES;
    if (child && this.ready && this.outbox.length === 0 && !large) {
      if (child.connected) child.send(request);
      return;
    }
    this.outbox.push(request);
    this.schedule();
  }

  private schedule(): void {
    if (this.draining || !this.ready || this.outbox.length === 0) return;
    this.draining = true;
    setImmediate(() => {
      this.draining = false;
      const child = this.child;
      if (!child?.connected) return;
      let bytes = 0;
      while (this.outbox.length > 0 && bytes < PIECE_BYTES) {
        const request = this.outbox.shift() as HostRequest;
        child.send(request);
        if (request.op === 'write') bytes += request.data.byteLength;
      }
      this.schedule();
    });
  }

  private ensureChild(): ChildProcess {
    if (this.child) return this.child;
    const entry = childEntry();
    const child = fork(entry.file, [PROGRAM_HOST_FLAG], {
      execArgv: entry.execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    this.child = child;
    this.ready = false;
    this.outbox = [];
    child.on('message', (reply: HostReply) => {
      if (reply.op === 'ready') {
        this.ready = true;
        this.schedule();
        return;
      }
      const run = this.runs.get(reply.id);
      if (!run) return;
      if (reply.op === 'data') {
        run.output.write(Buffer.from(reply.data.buffer, reply.data.byteOffset, reply.data.byteLength));
        return;
      }
      this.finish(reply.id, reply);
    });
    child.on('error', () => undefined); // its exit follows and fails what was running
    child.on('exit', () => {
      if (this.child !== child) return;
      this.child = undefined;
      this.ready = false;
      this.outbox = [];
      for (const id of [...this.runs.keys()]) {
        this.finish(id, { code: null, signal: null, stderr: '', error: 'the program host stopped' });
      }
    });
    return child;
  }

  private finish(id: number, exit: ProgramExit): void {
    const run = this.runs.get(id);
    if (!run) return;
    this.runs.delete(id);
    run.output.end();
    run.settle({
      code: exit.code,
      signal: exit.signal,
      stderr: exit.stderr,
      ...(exit.error ? { error: exit.error } : {}),
    });
    this.refresh();
  }

  /** The host keeps the server's process alive only while a program runs there. */
  private refresh(): void {
    const child = this.child;
    if (!child) return;
    if (this.runs.size > 0) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  }
}

/** Starts programs without the server's memory in the fork (see the file's comment). */
export const programHost = new ProgramHost();

/** Copies kept started ahead per argument list: two, so back-to-back requests both find one. */
const WARM_COPIES = 2;

/**
 * The host side: runs the programs it is asked to. For `warm` runs it keeps WARM_COPIES copies of that
 * argument list started ahead, replaced when a run ends (not when it starts, so the start-up does not
 * take CPU from the request that took one).
 */
export function serveProgramHost(): void {
  // Relaying audio is part of the work: below the server's event loop, like the programs themselves.
  lowerPriority();
  const running = new Map<number, ChildProcess>();
  const warm = new Map<string, ChildProcess[]>();
  const options: SpawnOptions = { stdio: ['pipe', 'pipe', 'pipe'] };
  const reply = (message: HostReply) => process.send?.(message);

  const fillWarm = (key: string, file: string, args: string[]) => {
    const copies = warm.get(key) ?? [];
    warm.set(key, copies);
    while (copies.length < WARM_COPIES && process.connected) {
      const child = spawn(file, args, options);
      lowerPriority(child.pid);
      child.on('error', () => undefined);
      child.stdin?.on('error', () => undefined);
      child.once('exit', () => {
        const at = copies.indexOf(child);
        if (at !== -1) copies.splice(at, 1);
      });
      copies.push(child);
    }
  };
  const takeWarm = (key: string): ChildProcess | undefined => {
    const copies = warm.get(key) ?? [];
    let child = copies.shift();
    while (child && (child.exitCode !== null || child.signalCode !== null)) child = copies.shift();
    return child;
  };

  const start = (request: Extract<HostRequest, { op: 'start' }>) => {
    const key = JSON.stringify([request.file, request.args]);
    let program = request.warm ? takeWarm(key) : undefined;
    if (!program) {
      program = spawn(request.file, request.args, options);
      lowerPriority(program.pid);
    }
    running.set(request.id, program);
    let stderr = '';
    let ended = false;
    const end = (exit: Omit<Extract<HostReply, { op: 'exit' }>, 'op' | 'id' | 'stderr'>) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      running.delete(request.id);
      reply({ op: 'exit', id: request.id, stderr, ...exit });
      if (request.warm) fillWarm(key, request.file, request.args);
    };
    const timer =
      request.timeoutMs === undefined
        ? undefined
        : setTimeout(() => program.kill('SIGKILL'), request.timeoutMs);
    program.stdin?.on('error', () => undefined); // a program may stop reading early; its exit code tells
    program.stdout?.on('data', (data: Buffer) => reply({ op: 'data', id: request.id, data }));
    program.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    program.on('error', (error) => {
      // It could not start at all: no close follows for sure.
      if (program.pid === undefined) end({ code: null, signal: null, error: error.message });
    });
    program.on('close', (code, signal) => end({ code, signal }));
  };

  process.on('message', (request: HostRequest) => {
    switch (request.op) {
      case 'start':
        start(request);
        return;
      case 'write':
        running.get(request.id)?.stdin?.write(request.data);
        return;
      case 'end':
        running.get(request.id)?.stdin?.end();
        return;
      case 'kill':
        running.get(request.id)?.kill('SIGKILL');
        return;
    }
  });
  // The server is gone: so are the programs, running or warm.
  process.on('disconnect', () => {
    for (const child of [...running.values(), ...[...warm.values()].flat()]) child.kill('SIGKILL');
    process.exit(0);
  });
  reply({ op: 'ready' });
}
