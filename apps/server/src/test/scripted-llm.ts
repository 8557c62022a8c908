/**
 * A scripted OpenAI-compatible chat server for tests (issue 28): the stand-in for a remote LLM, as
 * fake-stripe.ts is for Stripe. It listens on 127.0.0.1 (a free port), answers
 * `POST /v1/chat/completions` with what the test scripted — streamed as real server-sent events, text cut
 * into deltas and tool calls into the pieces OpenAI sends (the id and name first, the arguments' JSON in
 * slices, each piece naming its call by `index`) — and records every request. It holds no agent rule:
 * tests assert what the agent sent and what it did with the answer.
 *
 *     const llm = await startScriptedLlm();
 *     // point the provider at it: new OpenAiLlm({ url: llm.url, … }), or a test app's config:
 *     // createTestApp({ env: { LLM_OPENAI_URL: llm.url, LLM_OPENAI_MODEL: 'scripted' } })
 *     llm.enqueue({ text: 'Hello! How can I help?' });
 *     llm.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
 *     llm.enqueue({ status: 500, error: 'model crashed' });
 *     llm.respondWith((request) => ({ text: `You said ${lastUserText(request)}` })); // when the queue is empty
 *     …
 *     llm.requests[0].body.messages   // what the provider sent (parsed JSON), with its headers
 *     await llm.close();
 *
 * A reply (`ScriptedReply`):
 * - `text`: the answer's text, streamed in word-sized deltas (`chunkChars` cuts it finer instead);
 * - `toolCalls`: `{ name, arguments, id? }`, arguments an object (sent as JSON) or a raw string (to script
 *   a model that writes broken JSON); the finish reason is then `tool_calls`;
 * - `finishReason`, `usage` (`{ prompt_tokens, completion_tokens }`, sent when the request asked for it
 *   through `stream_options.include_usage`; counted from the text by default);
 * - `status` + `error`: answer that HTTP status with OpenAI's error body `{ error: { message } }`;
 * - `delayMs`: a pause before each chunk (the first included); `hang`: send the headers and nothing more
 *   until the client gives up (a timeout); `streamError`: stream this error event after the text.
 * With the queue empty and no `respondWith`, the server answers 500 "no scripted completion left", so a
 * test that forgot a reply fails plainly.
 *
 * `POST /v1/embeddings` answers OpenAI's shape with deterministic vectors (`scriptedEmbedding`): a bag of
 * words, each word hashed into one of EMBEDDING_DIMENSIONS slots, so texts sharing words are near and texts
 * sharing none are far; `synonyms` (word → the word it means) puts words of one meaning in one slot, the
 * way a real embedding model relates them. `failEmbeddings({ status, error })` answers the next embedding
 * requests with that error instead (`count` of them, all by default). Embedding requests are recorded in
 * `requests` too (their `path` tells them apart).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown> | string;
  id?: string;
}

export interface ScriptedReply {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  finishReason?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  status?: number;
  error?: string;
  delayMs?: number;
  hang?: boolean;
  streamError?: string;
  /** Cut the text into deltas of this many characters instead of words. */
  chunkChars?: number;
}

/** A request the server received: its parsed JSON body (`model`, `messages`, `tools`, …) and headers. */
export interface ScriptedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: {
    model?: string;
    messages?: { role: string; content?: string | null; tool_calls?: unknown[]; tool_call_id?: string }[];
    tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
    temperature?: number;
    max_tokens?: number;
    [key: string]: unknown;
  };
}

/** The length of the stand-in's embeddings. */
export const EMBEDDING_DIMENSIONS = 256;

/** FNV-1a of a word, for its slot. */
function slotOf(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i += 1) {
    hash ^= word.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % EMBEDDING_DIMENSIONS;
}

/** Words too common to carry meaning (they would make every two texts near). */
const STOP_WORDS = new Set(
  'a an and are as at be by can do does for from has have how i in is it its me my of on or our the this to was we what when where which who why will with you your'.split(
    ' ',
  ),
);

/** The stand-in's vector of a text: its words (through `synonyms`) counted into slots, unit length. */
export function scriptedEmbedding(text: string, synonyms: Record<string, string> = {}): number[] {
  const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (STOP_WORDS.has(raw)) continue;
    const word = synonyms[raw] ?? raw;
    vector[slotOf(word)] = (vector[slotOf(word)] ?? 0) + 1;
  }
  const norm = Math.sqrt(vector.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? vector : vector.map((x) => x / norm);
}

export interface ScriptedLlm {
  /** The API's base URL, `/v1` included (what LLM_OPENAI_URL takes). */
  url: string;
  requests: ScriptedRequest[];
  /** Words the embeddings treat as one (`{ reimburse: 'refund' }`); replaces the earlier table. */
  synonyms(table: Record<string, string>): void;
  /** The next `count` embedding requests (all when unset) answer this error. */
  failEmbeddings(failure: { status: number; error: string; count?: number } | undefined): void;
  enqueue(...replies: ScriptedReply[]): void;
  /** Answers every request the queue leaves unanswered. */
  respondWith(script: (request: ScriptedRequest) => ScriptedReply): void;
  /** Replies still queued. */
  readonly pending: number;
  close(): Promise<void>;
}

/** The text of the last user message of a request (for scripts that echo). */
export function lastUserText(request: ScriptedRequest): string {
  const users = (request.body.messages ?? []).filter((m) => m.role === 'user');
  return users.at(-1)?.content ?? '';
}

/** Text cut into deltas: words with the space before them, or pieces of `chunkChars`. */
function deltas(text: string, chunkChars?: number): string[] {
  if (chunkChars) {
    const pieces: string[] = [];
    for (let i = 0; i < text.length; i += chunkChars) pieces.push(text.slice(i, i + chunkChars));
    return pieces;
  }
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startScriptedLlm(): Promise<ScriptedLlm> {
  const requests: ScriptedRequest[] = [];
  const queue: ScriptedReply[] = [];
  let script: ((request: ScriptedRequest) => ScriptedReply) | undefined;
  let seq = 0;
  const open = new Set<http.ServerResponse>();
  let synonymTable: Record<string, string> = {};
  let embeddingFailure: { status: number; error: string; count?: number } | undefined;

  function answerEmbeddings(res: http.ServerResponse, body: ScriptedRequest['body']): void {
    const json = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (embeddingFailure) {
      const { status, error } = embeddingFailure;
      if (embeddingFailure.count !== undefined) {
        embeddingFailure.count -= 1;
        if (embeddingFailure.count <= 0) embeddingFailure = undefined;
      }
      json(status, { error: { message: error, type: 'invalid_request_error' } });
      return;
    }
    const input = body.input;
    const texts = typeof input === 'string' ? [input] : input;
    if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === 'string')) {
      json(400, { error: { message: '`input` must be a string or a list of strings' } });
      return;
    }
    json(200, {
      object: 'list',
      model: body.model ?? 'scripted-embedding',
      data: texts.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: scriptedEmbedding(text as string, synonymTable),
      })),
      usage: { prompt_tokens: 0, total_tokens: 0 },
    });
  }

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      void answer(req, res, Buffer.concat(parts).toString('utf8'));
    });
  });

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
    if (req.method !== 'POST' || (req.url !== '/v1/chat/completions' && req.url !== '/v1/embeddings')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    let body: ScriptedRequest['body'];
    try {
      body = JSON.parse(raw) as ScriptedRequest['body'];
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'the body is not JSON' } }));
      return;
    }
    const request: ScriptedRequest = { path: req.url, headers: req.headers, body };
    requests.push(request);
    if (req.url === '/v1/embeddings') {
      answerEmbeddings(res, body);
      return;
    }
    const reply = queue.shift() ?? script?.(request) ?? { status: 500, error: 'no scripted completion left' };
    if (reply.status !== undefined && reply.status >= 400) {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: reply.error ?? 'error', type: 'server_error' } }));
      return;
    }
    open.add(res);
    res.on('close', () => open.delete(res));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (reply.hang) return; // headers only: the client's time bound ends it
    const id = `chatcmpl-scripted-${++seq}`;
    const created = Math.floor(Date.now() / 1000);
    const model = body.model ?? 'scripted';
    const send = async (payload: unknown) => {
      if (reply.delayMs) await wait(reply.delayMs);
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify(payload)}\n\n`);
    };
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
    await send(chunk({ role: 'assistant', content: '' }));
    for (const delta of deltas(reply.text ?? '', reply.chunkChars)) await send(chunk({ content: delta }));
    if (reply.streamError) {
      await send({ error: { message: reply.streamError } });
      res.end();
      return;
    }
    for (const [index, call] of (reply.toolCalls ?? []).entries()) {
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      await send(
        chunk({
          tool_calls: [
            {
              index,
              id: call.id ?? `call_scripted_${seq}_${index}`,
              type: 'function',
              function: { name: call.name, arguments: '' },
            },
          ],
        }),
      );
      for (let at = 0; at < args.length; at += 7)
        await send(chunk({ tool_calls: [{ index, function: { arguments: args.slice(at, at + 7) } }] }));
    }
    const finish = reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');
    await send(chunk({}, finish));
    if (body.stream_options?.include_usage) {
      const promptText = JSON.stringify(body.messages ?? []);
      const usage = reply.usage ?? {
        prompt_tokens: Math.ceil(promptText.length / 4),
        completion_tokens: deltas(reply.text ?? '').length + (reply.toolCalls?.length ?? 0) * 10,
      };
      await send({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      });
    }
    if (!res.destroyed) res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    synonyms: (table) => {
      synonymTable = { ...table };
    },
    failEmbeddings: (failure) => {
      embeddingFailure = failure && { ...failure };
    },
    enqueue: (...replies) => queue.push(...replies),
    respondWith: (fn) => {
      script = fn;
    },
    get pending() {
      return queue.length;
    },
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
