/**
 * The OpenAI-compatible adapter of the LLM provider (LLM_OPENAI_URL): `POST {url}/chat/completions` with
 * `stream: true`, read as server-sent events (openai-stream.ts). The URL is the API's base, `/v1`
 * included, as Ollama (`http://127.0.0.1:11434/v1`), llama.cpp's server, vLLM and OpenAI name it.
 */
import {
  type ChatMessage,
  type ChatRequest,
  LlmError,
  type LlmEvent,
  type LlmProvider,
  type LlmStatus,
} from './llm-provider';
import { completionEvents } from './openai-stream';

export interface OpenAiLlmOptions {
  /** The API's base URL, without a trailing slash (`…/v1`). */
  url: string;
  apiKey: string | undefined;
  model: string;
  /** The most the server may stay silent: before its answer starts, and between two pieces of it. */
  timeoutMs: number;
  contextTokens: number;
}

/** OpenAI's message shape: tool calls as `{ id, type: 'function', function: { name, arguments } }`. */
function wireMessage(message: ChatMessage): Record<string, unknown> {
  if (message.role !== 'assistant' || !message.tool_calls?.length) return { ...message };
  return {
    role: 'assistant',
    content: message.content,
    tool_calls: message.tool_calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    })),
  };
}

/** The server's own words from an error body (`{error: {message}}`, `{error: "…"}`, `{detail}`, text). */
export async function upstreamMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as {
      error?: { message?: string } | string;
      detail?: unknown;
      message?: string;
    };
    const message =
      typeof body.error === 'string'
        ? body.error
        : (body.error?.message ??
          body.message ??
          (typeof body.detail === 'string' ? body.detail : undefined));
    if (message) return message;
  } catch {
    // not JSON: the text itself
  }
  return text.trim().slice(0, 500) || response.statusText || 'no message';
}

export class OpenAiLlm implements LlmProvider {
  constructor(private readonly options: OpenAiLlmOptions) {}

  status(): LlmStatus {
    return {
      available: true,
      name: 'openai',
      model: this.options.model,
      toolCalls: true,
      contextTokens: this.options.contextTokens,
    };
  }

  async *chat(request: ChatRequest): AsyncGenerator<LlmEvent> {
    const { signal } = request;
    if (signal?.aborted) throw new LlmError('aborted', 'The completion was cancelled.');
    const controller = new AbortController();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, this.options.timeoutMs);
    };
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    // What stopped the request: the caller, the silence bound, or the network.
    const failure = (error: unknown, doing: string): LlmError => {
      if (error instanceof LlmError) return error;
      if (signal?.aborted) return new LlmError('aborted', 'The completion was cancelled.');
      if (timedOut)
        return new LlmError(
          'timeout',
          `The LLM server at ${this.options.url} sent nothing for ${this.options.timeoutMs / 1000} s ${doing}.`,
        );
      return new LlmError(
        'unavailable',
        `The LLM server at ${this.options.url} could not be reached: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}.`,
        undefined,
        { cause: error },
      );
    };
    arm();
    try {
      const body: Record<string, unknown> = {
        model: this.options.model,
        messages: request.messages.map(wireMessage),
        stream: true,
        stream_options: { include_usage: true },
      };
      if (request.tools?.length)
        body.tools = request.tools.map((tool) => ({
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.parameters },
        }));
      if (request.temperature !== undefined) body.temperature = request.temperature;
      if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
      let response: Response;
      try {
        response = await fetch(`${this.options.url}/chat/completions`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
          },
          body: JSON.stringify(body),
          signal: controller.signal,
        });
      } catch (error) {
        throw failure(error, 'before answering');
      }
      if (!response.ok || !response.body) {
        const message = await upstreamMessage(response);
        throw new LlmError(
          'upstream',
          `The LLM server answered ${response.status}: ${message}`,
          response.status,
        );
      }
      arm();
      const stream = response.body;
      // Each piece that arrives re-arms the silence bound.
      const pieces = async function* (): AsyncGenerator<Uint8Array> {
        for await (const piece of stream) {
          arm();
          yield piece;
        }
      };
      try {
        for await (const event of completionEvents(pieces())) {
          if (signal?.aborted) throw new LlmError('aborted', 'The completion was cancelled.');
          yield event;
        }
      } catch (error) {
        throw failure(error, 'in the middle of its answer');
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // A consumer that stopped early (break) ends the request too.
      controller.abort();
    }
  }
}
