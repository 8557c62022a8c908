/**
 * The embedded adapter of the LLM provider: a GGUF of the model store (EMBEDDED_LLM_MODEL) run by
 * node-llama-cpp in a child process of its own (llm-child.ts), never in the server's. The process is
 * started by the first completion (or `warmUp()` at start), loads the model once and keeps it loaded;
 * completions queue there and run one at a time, each streamed back as the model writes it. A process that
 * died fails the completions it had (`unavailable`) and is started again by the next one.
 */
import { type ChildProcess, fork } from 'node:child_process';
import type { Logger } from 'pino';
import type { ModelId } from '../../platform/models/model-catalogue';
import { childEntry } from '../engines/child-entry';
import { childEnvironment } from '../engines/engine-pool';
import { LLM_CHILD_FLAG, type LlmChildReply, type LlmChildRequest, type LlmLoadOptions } from './llm-child';
import {
  type ChatRequest,
  type LlmEmbeddings,
  LlmError,
  type LlmEvent,
  type LlmProvider,
  type LlmStatus,
} from './llm-provider';
import { noEmbeddings } from './openai-embeddings';

/** The model store's GGUF the embedded adapter runs (model-catalogue.ts). */
export const EMBEDDED_LLM_MODEL: ModelId = 'qwen2.5-coder-0.5b';

export interface EmbeddedLlmOptions {
  /** The GGUF's path (from the model store). */
  modelPath: string;
  threads: number;
  contextTokens: number;
  /** The most the model may stay silent: queued, loading, or between two pieces of its answer. */
  timeoutMs: number;
  logger: Logger;
}

/** The most the model's load may take (process start included) before the completion waiting for it fails. */
const LOAD_TIMEOUT_MS = 180_000;

/**
 * What the embedded model is good for, as measured (bench/llm.bench.ts; bench/README.md): shown in the
 * agent editor beside the model.
 */
export const EMBEDDED_LLM_NOTE =
  'The built-in model (Qwen2.5-Coder 0.5B, on this server’s CPU) answers short questions from the agent’s knowledge base and calls a tool when the question plainly needs it, at about 7 words a second on a busy two-core server. It is weak at open conversation, long instructions and knowing when not to call a tool (it may invent one). For those, point the server at a bigger model (LLM_OPENAI_URL: Ollama, llama.cpp’s server, vLLM or OpenAI).';

interface Stream {
  push(event: LlmEvent): void;
  fail(error: LlmError): void;
}

/** The model's process and the completions it streams. */
class LlmHost {
  readonly child: ChildProcess;
  readonly loaded: Promise<number>;
  private readonly streams = new Map<number, Stream>();
  private gone: LlmError | undefined;

  constructor(load: LlmLoadOptions, logger: Logger) {
    const entry = childEntry();
    this.child = fork(entry.file, [LLM_CHILD_FLAG], {
      execArgv: entry.execArgv,
      env: childEnvironment(),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    // Neither the process nor its channel keeps the server running.
    this.child.unref();
    (this.child.channel as { unref?: () => void } | undefined)?.unref?.();
    this.child.stderr?.on('data', (chunk: Buffer) =>
      logger.debug({ pid: this.child.pid, stderr: chunk.toString().slice(0, 500) }, 'llm stderr'),
    );
    let loadedOk: (ms: number) => void = () => undefined;
    let loadFailed: (error: LlmError) => void = () => undefined;
    this.loaded = new Promise<number>((resolve, reject) => {
      loadedOk = resolve;
      loadFailed = reject;
    });
    this.loaded.catch(() => undefined);
    this.child.on('message', (reply: LlmChildReply) => {
      if ('ready' in reply) {
        this.send({ op: 'load', id: 0, options: load });
        return;
      }
      if (reply.id === 0) {
        if ('loaded' in reply) loadedOk(reply.loaded.ms);
        else if ('error' in reply) loadFailed(new LlmError('unavailable', reply.error));
        return;
      }
      const stream = this.streams.get(reply.id);
      if (!stream) return;
      if ('event' in reply) {
        stream.push(reply.event);
        if (reply.event.type === 'done') this.streams.delete(reply.id);
      } else if ('error' in reply) {
        this.streams.delete(reply.id);
        stream.fail(new LlmError('upstream', `The embedded model failed: ${reply.error}`));
      }
    });
    this.child.on('error', () => undefined); // its exit follows
    this.child.on('exit', (code, signal) => {
      const error = new LlmError(
        'unavailable',
        `The embedded model's process stopped (${signal ?? `exit code ${code}`}).`,
      );
      this.gone ??= error;
      loadFailed(error);
      for (const stream of this.streams.values()) stream.fail(error);
      this.streams.clear();
      if (code !== 0 && signal !== 'SIGTERM')
        logger.warn({ pid: this.child.pid, code, signal }, 'llm process exited');
    });
  }

  get alive(): boolean {
    return this.gone === undefined;
  }

  send(request: LlmChildRequest): void {
    if (this.child.connected) this.child.send(request);
  }

  open(id: number, stream: Stream): void {
    if (this.gone) {
      stream.fail(this.gone);
      return;
    }
    this.streams.set(id, stream);
  }

  forget(id: number): void {
    if (this.streams.delete(id)) this.send({ op: 'abort', id });
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

export class EmbeddedLlm implements LlmProvider {
  /** Qwen2.5-Coder 0.5B is a chat model: it computes no embeddings (LLM_EMBEDDING_MODEL names a server's). */
  embeddings: LlmEmbeddings | undefined = noEmbeddings(
    'The embedded language model computes no embeddings: set LLM_EMBEDDING_MODEL (with LLM_EMBEDDING_URL or LLM_OPENAI_URL) to an OpenAI-compatible server’s embedding model.',
  );
  private host: LlmHost | undefined;
  private seq = 0;
  /** Why the model could not be loaded last time (shown by status until a load succeeds). */
  private loadError: string | undefined;

  constructor(private readonly options: EmbeddedLlmOptions) {}

  status(): LlmStatus {
    return {
      available: this.loadError === undefined,
      ...(this.loadError ? { reason: this.loadError } : {}),
      name: 'embedded',
      model: EMBEDDED_LLM_MODEL,
      toolCalls: true,
      contextTokens: this.options.contextTokens,
      note: EMBEDDED_LLM_NOTE,
    };
  }

  /** Starts the process and loads the model now, so the first conversation does not wait for it. */
  warmUp(): void {
    void this.running().loaded.then(
      (ms) => this.options.logger.info({ ms, model: EMBEDDED_LLM_MODEL }, 'embedded llm loaded'),
      () => undefined,
    );
  }

  private running(): LlmHost {
    if (this.host?.alive) return this.host;
    const host = new LlmHost(
      {
        modelPath: this.options.modelPath,
        threads: this.options.threads,
        contextTokens: this.options.contextTokens,
      },
      this.options.logger,
    );
    host.loaded.then(
      () => {
        this.loadError = undefined;
      },
      (error: LlmError) => {
        this.loadError = error.message;
        this.options.logger.error({ err: error }, 'embedded llm could not be loaded');
        // The next completion tries again in a new process.
        void host.stop();
      },
    );
    this.host = host;
    return host;
  }

  async *chat(request: ChatRequest): AsyncGenerator<LlmEvent> {
    const { signal } = request;
    if (signal?.aborted) throw new LlmError('aborted', 'The completion was cancelled.');
    const host = this.running();
    const id = ++this.seq;
    const events: LlmEvent[] = [];
    let failure: LlmError | undefined;
    let finished = false;
    let wake: () => void = () => undefined;
    const woken = () =>
      new Promise<void>((resolve) => {
        wake = resolve;
      });
    let timer: NodeJS.Timeout | undefined;
    let loaded = false;
    // The model's load (a few seconds, more on a busy machine) has its own bound; the silence bound
    // starts once the model is loaded.
    const arm = () => {
      clearTimeout(timer);
      const bound = loaded ? this.options.timeoutMs : Math.max(LOAD_TIMEOUT_MS, this.options.timeoutMs);
      timer = setTimeout(() => {
        failure ??= new LlmError(
          'timeout',
          loaded
            ? `The embedded model sent nothing for ${bound / 1000} s (busy with other conversations, or too slow here).`
            : `The embedded model did not load within ${bound / 1000} s.`,
        );
        wake();
      }, bound);
    };
    const onAbort = () => {
      failure ??= new LlmError('aborted', 'The completion was cancelled.');
      wake();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();
    host.loaded.then(
      () => {
        loaded = true;
        if (!finished && !failure) arm();
      },
      (error: LlmError) => {
        failure ??= error;
        wake();
      },
    );
    host.open(id, {
      push: (event) => {
        arm();
        events.push(event);
        if (event.type === 'done') finished = true;
        wake();
      },
      fail: (error) => {
        failure ??= error;
        wake();
      },
    });
    try {
      host.send({
        op: 'chat',
        id,
        job: {
          messages: request.messages,
          ...(request.tools ? { tools: request.tools } : {}),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
        },
      });
      for (;;) {
        const next = woken();
        while (events.length > 0) {
          if (failure?.kind === 'aborted') throw failure;
          yield events.shift() as LlmEvent;
        }
        if (failure) throw failure;
        if (finished) return;
        await next;
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Stopped early, failed or aborted: the model stops working on it.
      if (!finished) host.forget(id);
    }
  }

  async close(): Promise<void> {
    await this.host?.stop();
    this.host = undefined;
  }
}
