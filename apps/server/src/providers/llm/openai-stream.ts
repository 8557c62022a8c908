/**
 * Reading an OpenAI-compatible streamed chat completion: the server-sent events of the body (`data:` lines,
 * an event per blank line, `[DONE]` at the end), and the chunks' deltas turned into the port's events —
 * text as it comes, tool calls put together from the pieces the server streams (OpenAI sends a call's id
 * and name in its first piece and the arguments' JSON in slices, each piece naming the call by `index`).
 */
import {
  LlmError,
  type LlmEvent,
  type LlmFinishReason,
  type LlmToolCall,
  type LlmUsage,
  parseToolArguments,
} from './llm-provider';

/**
 * Splits a byte stream into server-sent events and yields each event's data (its `data:` lines joined by
 * newlines). Comments (`:`) and other fields are skipped; lines may end in \n, \r\n or \r, and a chunk may
 * end anywhere, even inside a character.
 */
export async function* sseData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const lines = function* (final: boolean): Generator<string> {
    for (;;) {
      const match = /\r\n|\r|\n/.exec(buffer);
      // A lone \r at the very end may be the first half of \r\n: wait for the next chunk.
      if (!match || (!final && match[0] === '\r' && match.index === buffer.length - 1)) break;
      yield buffer.slice(0, match.index);
      buffer = buffer.slice(match.index + match[0].length);
    }
    if (final && buffer !== '') {
      yield buffer;
      buffer = '';
    }
  };
  const takeLine = (line: string): string | undefined => {
    if (line === '') {
      const event = data.length > 0 ? data.join('\n') : undefined;
      data = [];
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    return undefined;
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (const line of lines(false)) {
      const event = takeLine(line);
      if (event !== undefined) yield event;
    }
  }
  buffer += decoder.decode();
  for (const line of lines(true)) {
    const event = takeLine(line);
    if (event !== undefined) yield event;
  }
  // A last event without its blank line still counts.
  if (data.length > 0) yield data.join('\n');
}

interface ToolCallDelta {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

interface ChunkChoice {
  index?: number;
  delta?: { content?: string | null; tool_calls?: ToolCallDelta[] | null };
  finish_reason?: string | null;
}

interface Chunk {
  choices?: ChunkChoice[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string } | string;
}

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

const FINISH_REASONS: Record<string, LlmFinishReason> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

/**
 * Puts a completion's chunks together: `accept` takes one chunk (parsed JSON) and returns the events it
 * completes; `finish` returns what is left (tool calls not yet handed over) and the `done` event.
 */
export class CompletionAccumulator {
  private readonly calls = new Map<number, PendingCall>();
  private finishReason: LlmFinishReason | undefined;
  private usage: LlmUsage = { promptTokens: null, completionTokens: null };
  private emitted = 0;

  accept(chunk: Chunk): LlmEvent[] {
    if (chunk.error !== undefined) {
      const message = typeof chunk.error === 'string' ? chunk.error : chunk.error.message;
      throw new LlmError('upstream', `The LLM server reported an error: ${message ?? 'no message'}`);
    }
    if (chunk.usage) {
      this.usage = {
        promptTokens: chunk.usage.prompt_tokens ?? null,
        completionTokens: chunk.usage.completion_tokens ?? null,
      };
    }
    const events: LlmEvent[] = [];
    // Only the first choice: the port asks for one (n = 1).
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) return events;
    const content = choice.delta?.content;
    if (typeof content === 'string' && content !== '') events.push({ type: 'text', delta: content });
    // Servers that omit `index` send each call whole: it goes after every call seen so far.
    const next = this.emitted + this.calls.size;
    for (const [position, piece] of (choice.delta?.tool_calls ?? []).entries()) {
      const index = piece.index ?? next + position;
      const known = this.calls.get(index);
      if (!known) {
        this.calls.set(index, {
          id: piece.id ?? '',
          name: piece.function?.name ?? '',
          arguments: piece.function?.arguments ?? '',
        });
        continue;
      }
      if (piece.id) known.id = piece.id;
      if (piece.function?.name) known.name += piece.function.name;
      if (piece.function?.arguments) known.arguments += piece.function.arguments;
    }
    if (choice.finish_reason) {
      this.finishReason = FINISH_REASONS[choice.finish_reason] ?? 'other';
      events.push(...this.completedCalls());
    }
    return events;
  }

  /** The calls not yet handed over (a server that never sent a finish reason) and the final event. */
  finish(): LlmEvent[] {
    const events = this.completedCalls();
    const finishReason = this.finishReason ?? (this.emitted > 0 ? 'tool_calls' : 'stop');
    events.push({ type: 'done', finishReason, usage: this.usage });
    return events;
  }

  private completedCalls(): LlmEvent[] {
    const events: LlmEvent[] = [];
    for (const index of [...this.calls.keys()].sort((a, b) => a - b)) {
      const pending = this.calls.get(index) as PendingCall;
      this.calls.delete(index);
      this.emitted += 1;
      const call: LlmToolCall = {
        id: pending.id || `call_${this.emitted}`,
        name: pending.name,
        ...parseToolArguments(pending.arguments),
      };
      events.push({ type: 'tool_call', call });
    }
    return events;
  }
}

/** The events of a streamed completion body. */
export async function* completionEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<LlmEvent> {
  const accumulator = new CompletionAccumulator();
  for await (const data of sseData(body)) {
    if (data.trim() === '[DONE]') break;
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data) as Chunk;
    } catch {
      throw new LlmError(
        'upstream',
        `The LLM server streamed something that is not JSON: ${data.slice(0, 200)}`,
      );
    }
    yield* accumulator.accept(chunk);
  }
  yield* accumulator.finish();
}
