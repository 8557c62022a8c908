/**
 * The OpenAI-compatible adapter's embeddings (issue 28 item 3): `POST {url}/embeddings` with
 * `{ model, input: [...] }`, as Ollama, llama.cpp's server (`--embedding`), vLLM and OpenAI answer it
 * (`{ data: [{ index, embedding: number[] }] }`). The knowledge base asks for its passages' vectors here.
 */
import { type EmbeddingStatus, type LlmEmbeddings, LlmError } from './llm-provider';
import { upstreamMessage } from './openai-llm';

/** Inputs per request: servers cap a batch (OpenAI at 2,048; llama.cpp by its batch size), so stay small. */
export const EMBEDDING_BATCH = 32;

export interface OpenAiEmbeddingsOptions {
  /** The API's base URL, without a trailing slash (`…/v1`). */
  url: string;
  apiKey: string | undefined;
  model: string;
  /** The most one request may take. */
  timeoutMs: number;
}

export class OpenAiEmbeddings implements LlmEmbeddings {
  constructor(private readonly options: OpenAiEmbeddingsOptions) {}

  status(): EmbeddingStatus {
    return { available: true, model: this.options.model };
  }

  async embed(inputs: readonly string[], options: { signal?: AbortSignal } = {}): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let at = 0; at < inputs.length; at += EMBEDDING_BATCH) {
      const batch = await this.request(inputs.slice(at, at + EMBEDDING_BATCH), options.signal);
      const size = vectors[0]?.length ?? batch[0]?.length;
      if (batch.some((v) => v.length !== size))
        throw new LlmError(
          'upstream',
          `The embedding server at ${this.options.url} answered vectors of different lengths.`,
        );
      vectors.push(...batch);
    }
    return vectors;
  }

  private async request(inputs: string[], signal: AbortSignal | undefined): Promise<number[][]> {
    if (signal?.aborted) throw new LlmError('aborted', 'The embedding request was cancelled.');
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.options.timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const where = `The embedding server at ${this.options.url}`;
    try {
      let response: Response;
      let text: string;
      try {
        response = await fetch(`${this.options.url}/embeddings`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
          },
          body: JSON.stringify({ model: this.options.model, input: inputs, encoding_format: 'float' }),
          signal: controller.signal,
        });
        if (!response.ok) {
          const message = await upstreamMessage(response);
          throw new LlmError('upstream', `${where} answered ${response.status}: ${message}`, response.status);
        }
        text = await response.text();
      } catch (error) {
        if (error instanceof LlmError) throw error;
        if (signal?.aborted) throw new LlmError('aborted', 'The embedding request was cancelled.');
        if (timedOut)
          throw new LlmError('timeout', `${where} did not answer within ${this.options.timeoutMs / 1000} s.`);
        throw new LlmError(
          'unavailable',
          `${where} could not be reached: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}.`,
          undefined,
          { cause: error },
        );
      }
      return vectorsOf(text, inputs.length, where);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** The vectors of an answer, in the inputs' order (by `index`), checked: one per input, numbers only. */
function vectorsOf(text: string, count: number, where: string): number[][] {
  const bad = (why: string) => new LlmError('upstream', `${where} answered ${why}.`);
  let body: { data?: unknown };
  try {
    body = JSON.parse(text) as { data?: unknown };
  } catch {
    throw bad('something that is not JSON');
  }
  if (!Array.isArray(body.data)) throw bad('no `data` list of embeddings');
  const out: (number[] | undefined)[] = new Array(count).fill(undefined);
  for (const [position, item] of body.data.entries()) {
    const entry = item as { index?: unknown; embedding?: unknown };
    const index = typeof entry.index === 'number' ? entry.index : position;
    const vector = entry.embedding;
    if (!Array.isArray(vector) || vector.length === 0 || !vector.every((x) => typeof x === 'number'))
      throw bad('an embedding that is not a list of numbers (base64 encoding is not read)');
    if (!Number.isInteger(index) || index < 0 || index >= count) throw bad(`an embedding for input ${index}`);
    out[index] = vector as number[];
  }
  const missing = out.indexOf(undefined);
  if (missing >= 0) throw bad(`${body.data.length} embeddings for ${count} inputs`);
  return out as number[][];
}

/** The capability of an adapter with no embedding model: it says why. */
export function noEmbeddings(reason: string): LlmEmbeddings {
  return {
    status: () => ({ available: false, model: null, reason }),
    async embed() {
      throw new LlmError('unavailable', reason);
    },
  };
}
