/**
 * The LLM provider, the port (issue 28, "The LLM provider"): streamed chat completions with tool calls.
 * Agents, the knowledge base and the conversation socket take it from `deps.providers.llm` and never see
 * which adapter answers.
 *
 *     const status = deps.providers.llm.status();
 *     if (!status.available) …knowledge-base mode: status.reason says why…
 *     for await (const event of deps.providers.llm.chat({ messages, tools, signal })) {
 *       if (event.type === 'text') say(event.delta);              // text as it comes, in order
 *       else if (event.type === 'tool_call') call(event.call);     // whole: { id, name, arguments }
 *       else finish(event.finishReason, event.usage);               // always last, exactly once
 *     }
 *
 * - `messages`: OpenAI's roles. `assistant` may carry `tool_calls` (what the model asked for earlier);
 *   each `tool` message answers one of them by `tool_call_id`.
 * - `tools`: `{ name, description, parameters }`, `parameters` a JSON schema of an object.
 * - Events: `text` deltas; `tool_call` once per call, complete, its `arguments` parsed JSON (an object) or,
 *   when the model wrote something that does not parse, the raw string (`argumentsInvalid` true) for the
 *   caller to refuse; then `done` with the finish reason (`stop`, `length`, `tool_calls`) and token usage
 *   (counts are null when the server did not say).
 * - Errors are thrown from the iteration as `LlmError` with a `kind`: `unavailable` (no model or server:
 *   `status()` said so too), `timeout` (nothing arrived for the provider's time bound), `upstream` (the
 *   server answered an error: its status and its own message), `aborted` (the caller's `signal`).
 *   Aborting stops the work (the embedded model stops generating; the HTTP request is cancelled).
 * - `status()` is synchronous and cheap: call it per conversation, not only at start.
 *
 * Embeddings (optional capability, issue 28 item 3): `provider.embeddings`, when the adapter has one, turns
 * texts into vectors for the knowledge base's retrieval by meaning:
 *
 *     const embeddings = deps.providers.llm.embeddings;
 *     if (embeddings?.status().available) {
 *       const vectors = await embeddings.embed(['first passage', 'second passage'], { signal });
 *     }
 *
 * - `embed` answers one vector per input, in order, all of the same length; it batches the inputs itself
 *   (a request per EMBEDDING_BATCH inputs), each request within the provider's time bound. Errors are
 *   `LlmError`s as for chat (`unavailable`, `timeout`, `upstream` with the server's words, `aborted`).
 * - Absent, or `status().available` false with its reason: no embedding model (the embedded model has none).
 *
 * Adapters: `openai-llm.ts` (any OpenAI-compatible server: Ollama, llama.cpp's server, vLLM, OpenAI),
 * `embedded-llm.ts` (a GGUF of the model store run by node-llama-cpp in a child process), and
 * `unavailableLlm` (create-llm-provider.ts) when there is neither. Tests use `test/scripted-llm.ts`, a local
 * OpenAI-compatible server that streams what the test scripts, behind the real OpenAI adapter.
 */

/** A tool call the model made: `arguments` as JSON text, the way OpenAI's messages carry it. */
export interface ChatToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them (JSON text). */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool the model may call. */
export interface ChatTool {
  name: string;
  description: string;
  /** A JSON schema of an object (`{ type: 'object', properties, required }`). */
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ChatTool[];
  /** 0 … 2; the adapter's default when unset. */
  temperature?: number;
  /** The most tokens of the answer. */
  maxTokens?: number;
  /** Aborting ends the stream with an `aborted` LlmError and stops the work. */
  signal?: AbortSignal;
}

/** A complete tool call as the stream hands it over. */
export interface LlmToolCall {
  id: string;
  name: string;
  /** Parsed JSON when it parsed; the raw text otherwise (then `argumentsInvalid` is true). */
  arguments: unknown;
  argumentsInvalid: boolean;
}

export type LlmFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

export interface LlmUsage {
  promptTokens: number | null;
  completionTokens: number | null;
}

export type LlmEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; call: LlmToolCall }
  | { type: 'done'; finishReason: LlmFinishReason; usage: LlmUsage };

export interface LlmStatus {
  available: boolean;
  /** Why not, in a sentence for the UI and the conversation's metadata; undefined when available. */
  reason?: string;
  /** The adapter: `embedded`, `openai`, `none`. */
  name: 'embedded' | 'openai' | 'none';
  /** The model it runs or asks for (null with none). */
  model: string | null;
  /** Whether tools may be given (false: tools that need the model are refused by the caller). */
  toolCalls: boolean;
  /** The context window in tokens: the prompt and the answer together must fit. */
  contextTokens: number;
  /**
   * What this model is good for and when to use a bigger one, in plain words for the agent editor (the
   * embedded model says it); undefined when there is nothing to say.
   */
  note?: string;
}

export interface EmbeddingStatus {
  available: boolean;
  /** The embedding model's name as its server knows it; null when there is none. */
  model: string | null;
  /** Why there is none, in a sentence; undefined when available. */
  reason?: string;
}

export interface LlmEmbeddings {
  status(): EmbeddingStatus;
  /** One vector per input, in order. */
  embed(inputs: readonly string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}

export interface LlmProvider {
  chat(request: ChatRequest): AsyncIterable<LlmEvent>;
  status(): LlmStatus;
  /** Texts to vectors, when an embedding model is configured (see above); absent when the adapter has none. */
  embeddings?: LlmEmbeddings;
  /**
   * Loads the model now, if the adapter has one to load (the embedded model: a few seconds), so the first
   * answer does not wait for it: call it when a conversation opens (its first message is spoken
   * meanwhile). The model then stays loaded. Nothing is loaded at start: a server with no agent pays nothing.
   */
  warmUp?(): void;
  /** Stops what the provider runs (the embedded model's process); the server calls it at shutdown. */
  close?(): Promise<void>;
}

export type LlmErrorKind = 'unavailable' | 'timeout' | 'upstream' | 'aborted';

/** Why a completion failed; `upstreamStatus` is the server's HTTP status for `upstream` (when it had one). */
export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly upstreamStatus?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LlmError';
  }
}

/** Tool-call arguments as the stream hands them over: parsed, or the raw text when they do not parse. */
export function parseToolArguments(raw: string): { arguments: unknown; argumentsInvalid: boolean } {
  const text = raw.trim() === '' ? '{}' : raw;
  try {
    return { arguments: JSON.parse(text) as unknown, argumentsInvalid: false };
  } catch {
    return { arguments: raw, argumentsInvalid: true };
  }
}
