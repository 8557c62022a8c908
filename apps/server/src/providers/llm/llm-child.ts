/**
 * The embedded LLM's process (issue 28): the engine child entry started with LLM_CHILD_FLAG. It loads one
 * GGUF with node-llama-cpp (its prebuilt CPU binary from npm; nothing is built or downloaded at run time),
 * keeps it loaded, and runs one completion at a time, streaming each one's events back over IPC as the
 * model writes them. Engines never run in the server's own process: a crash here costs the completion
 * running, and the server starts the process again on the next one (embedded-llm.ts).
 *
 * Tool calls: node-llama-cpp's chat wrapper for the model (Qwen's) offers the tools in the model's own
 * format and, when the model opens a call with its `<tool_call>` token, holds the arguments to the tool's
 * schema by grammar. Small models often write the call's JSON without that token
 * (`{"name": "get_weather", "arguments": {"city": "Paris"}}`, measured with Qwen2.5-Coder 0.5B): with
 * tools given, an answer that starts like JSON is held back until it ends, and read as a call when it is
 * one to a tool offered; otherwise it goes out as text.
 */
import type { ChatHistoryItem, ChatModelFunctions, GbnfJsonSchema, LlamaChat } from 'node-llama-cpp';
import { lowerPriority } from '../engines/work-priority';
import type { ChatMessage, ChatTool, LlmEvent, LlmFinishReason } from './llm-provider';
import { parseToolArguments } from './llm-provider';

/** The flag that makes the engine child entry serve as the embedded LLM's process. */
export const LLM_CHILD_FLAG = '--llm';

export interface LlmLoadOptions {
  modelPath: string;
  threads: number;
  contextTokens: number;
}

export interface LlmChatJob {
  messages: ChatMessage[];
  tools?: ChatTool[];
  temperature?: number;
  maxTokens?: number;
}

export type LlmChildRequest =
  | { op: 'load'; id: number; options: LlmLoadOptions }
  | { op: 'chat'; id: number; job: LlmChatJob }
  | { op: 'abort'; id: number };

export type LlmChildReply =
  | { ready: true }
  | { id: number; loaded: { ms: number } }
  | { id: number; event: LlmEvent }
  | { id: number; error: string };

/** The answer's default bound when the caller gives none: a spoken turn is short. */
const DEFAULT_MAX_TOKENS = 512;

function send(reply: LlmChildReply): void {
  process.send?.(reply);
}

/**
 * JSON schema → the subset node-llama-cpp's grammar takes (types, properties, items, enum, const,
 * oneOf/anyOf, descriptions). Anything else (formats, patterns, bounds) is dropped: the grammar cannot
 * hold the model to it, and the tool's own validation still checks the call.
 */
export function grammarSchema(schema: unknown): GbnfJsonSchema {
  if (typeof schema !== 'object' || schema === null) return { type: 'string' };
  const s = schema as Record<string, unknown>;
  const description = typeof s.description === 'string' ? { description: s.description } : {};
  if (Array.isArray(s.enum)) return { enum: s.enum as (string | number | boolean | null)[], ...description };
  if ('const' in s) return { const: s.const as string | number | boolean | null, ...description };
  const alternatives = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0)
    return { oneOf: alternatives.map(grammarSchema), ...description };
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
    case 'null':
      return { type, ...description } as GbnfJsonSchema;
    case 'array':
      return { type: 'array', items: grammarSchema(s.items ?? {}), ...description };
    default: {
      const properties: Record<string, GbnfJsonSchema> = {};
      for (const [key, value] of Object.entries((s.properties ?? {}) as Record<string, unknown>))
        properties[key] = grammarSchema(value);
      return { type: 'object', properties, ...description };
    }
  }
}

/**
 * OpenAI-shaped messages → node-llama-cpp's chat history, ending with the model's turn to answer. A tool
 * message becomes the result of the call it answers (by id); one answering no known call is said to the
 * model as a user message.
 */
export function chatHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  const calls = new Map<string, { result: unknown }>();
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        history.push({ type: 'system', text: message.content });
        break;
      case 'user':
        history.push({ type: 'user', text: message.content });
        break;
      case 'assistant': {
        const response: Extract<ChatHistoryItem, { type: 'model' }>['response'] = [];
        if (message.content) response.push(message.content);
        for (const call of message.tool_calls ?? []) {
          const parsed = parseToolArguments(call.arguments);
          const item = {
            type: 'functionCall' as const,
            name: call.name,
            params: parsed.arguments,
            result: undefined as unknown,
          };
          calls.set(call.id, item);
          response.push(item);
        }
        history.push({ type: 'model', response });
        break;
      }
      case 'tool': {
        const call = calls.get(message.tool_call_id);
        if (call) call.result = message.content;
        else
          history.push({ type: 'user', text: `Tool result (${message.tool_call_id}): ${message.content}` });
        break;
      }
    }
  }
  history.push({ type: 'model', response: [] });
  return history;
}

/**
 * Reads an answer that is a tool call written as plain JSON (`{"name": …, "arguments": …}`, maybe inside
 * `<tool_call>` tags or a code fence): to one of the tools offered, or to any name when it has both keys
 * (a small model invents tools; the caller refuses a tool the agent does not have, as it would from any
 * server). Undefined when it is not a call.
 */
export function plainToolCall(
  text: string,
  tools: readonly ChatTool[],
): { name: string; arguments: unknown; argumentsInvalid: boolean } | undefined {
  const body = text
    .trim()
    .replace(/^<tool_call>\s*|\s*<\/tool_call>$/g, '')
    .replace(/^```(?:json)?\s*|\s*```$/g, '')
    .trim();
  if (!body.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { name, arguments: args, parameters } = parsed as Record<string, unknown>;
  if (typeof name !== 'string') return undefined;
  // A call to a tool not offered is still a call (the caller refuses it), not text to be spoken, when it
  // has a call's shape.
  if (!tools.some((tool) => tool.name === name) && args === undefined && parameters === undefined)
    return undefined;
  const given = args ?? parameters ?? {};
  if (typeof given === 'string') return { name, ...parseToolArguments(given) };
  return { name, arguments: given, argumentsInvalid: false };
}

/** Whether the start of an answer may still turn out to be a tool call written as JSON. */
function mayBeCall(text: string): boolean {
  const start = text.trimStart();
  if (start === '') return true;
  return (
    start.startsWith('{') ||
    start.startsWith('<tool_call>') ||
    '<tool_call>'.startsWith(start) ||
    start.startsWith('```')
  );
}

interface Loaded {
  chat: LlamaChat;
  contextTokens: number;
}

let loaded: Loaded | undefined;
const queue: { id: number; job: LlmChatJob }[] = [];
const aborts = new Map<number, AbortController>();
let running = false;
/** Where the server's `load` goes: completions that arrive before it, or during the load, wait for it. */
let requestLoad: (options: LlmLoadOptions) => void = () => undefined;
const loading = new Promise<LlmLoadOptions>((resolve) => {
  requestLoad = resolve;
}).then(load);
loading.catch(() => undefined);

async function load(options: LlmLoadOptions): Promise<number> {
  const started = performance.now();
  const { getLlama, LlamaChat, LlamaLogLevel } = await import('node-llama-cpp');
  // The prebuilt CPU binary only: never build llama.cpp or fetch anything here.
  const llama = await getLlama({
    gpu: false,
    build: 'never',
    progressLogs: false,
    logLevel: LlamaLogLevel.error,
  });
  const model = await llama.loadModel({ modelPath: options.modelPath });
  const context = await model.createContext({ contextSize: options.contextTokens, threads: options.threads });
  loaded = {
    chat: new LlamaChat({ contextSequence: context.getSequence() }),
    contextTokens: options.contextTokens,
  };
  return Math.round(performance.now() - started);
}

async function run(id: number, job: LlmChatJob, signal: AbortSignal): Promise<void> {
  await loading;
  if (!loaded) throw new Error('The embedded model is not loaded.');
  const { chat } = loaded;
  const tools = job.tools ?? [];
  const functions: ChatModelFunctions | undefined =
    tools.length > 0
      ? Object.fromEntries(
          tools.map((tool) => [
            tool.name,
            { description: tool.description, params: grammarSchema(tool.parameters) },
          ]),
        )
      : undefined;
  let held = '';
  let holding = tools.length > 0;
  let completionTokens = 0;
  const emit = (event: LlmEvent) => send({ id, event });
  const onTextChunk = (text: string) => {
    if (!holding) {
      emit({ type: 'text', delta: text });
      return;
    }
    held += text;
    if (!mayBeCall(held)) {
      holding = false;
      emit({ type: 'text', delta: held });
      held = '';
    }
  };
  const common = {
    onTextChunk,
    onToken: (tokens: readonly unknown[]) => {
      completionTokens += tokens.length;
    },
    signal,
    stopOnAbortSignal: true,
    maxTokens: job.maxTokens ?? DEFAULT_MAX_TOKENS,
    temperature: job.temperature ?? 0,
  };
  const history = chatHistory(job.messages);
  const result = functions
    ? await chat.generateResponse(history, { ...common, functions, maxParallelFunctionCalls: 4 })
    : await chat.generateResponse(history, common);
  if (signal.aborted) return;
  let calls = 0;
  for (const call of result.functionCalls ?? []) {
    calls += 1;
    emit({
      type: 'tool_call',
      call: {
        id: `call_${id}_${calls}`,
        name: call.functionName,
        arguments: call.params ?? {},
        argumentsInvalid: false,
      },
    });
  }
  if (held !== '') {
    const plain = calls === 0 ? plainToolCall(held, tools) : undefined;
    if (plain) {
      calls += 1;
      emit({ type: 'tool_call', call: { id: `call_${id}_${calls}`, ...plain } });
    } else emit({ type: 'text', delta: held });
  }
  const stop = result.metadata.stopReason;
  const finishReason: LlmFinishReason = calls > 0 ? 'tool_calls' : stop === 'maxTokens' ? 'length' : 'stop';
  const inContext = chat.sequence.nextTokenIndex;
  emit({
    type: 'done',
    finishReason,
    usage: { promptTokens: Math.max(0, inContext - completionTokens), completionTokens },
  });
}

async function pump(): Promise<void> {
  if (running) return;
  running = true;
  try {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const controller = aborts.get(next.id) ?? new AbortController();
      aborts.set(next.id, controller);
      if (controller.signal.aborted) {
        aborts.delete(next.id);
        continue;
      }
      try {
        await run(next.id, next.job, controller.signal);
      } catch (error) {
        if (!controller.signal.aborted)
          send({ id: next.id, error: error instanceof Error ? error.message : String(error) });
      } finally {
        aborts.delete(next.id);
      }
    }
  } finally {
    running = false;
  }
}

export function serveLlm(): void {
  // Below the server's event loop, as the engine threads are (work-priority.ts).
  lowerPriority(process.pid);
  process.on('message', (message: LlmChildRequest) => {
    switch (message.op) {
      case 'load':
        requestLoad(message.options);
        loading.then(
          (ms) => send({ id: message.id, loaded: { ms } }),
          (error: unknown) =>
            send({
              id: message.id,
              error: `The model could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
            }),
        );
        return;
      case 'chat':
        aborts.set(message.id, new AbortController());
        queue.push({ id: message.id, job: message.job });
        void pump();
        return;
      case 'abort':
        aborts.get(message.id)?.abort();
        return;
    }
  });
  process.on('disconnect', () => process.exit(0));
  send({ ready: true });
}
