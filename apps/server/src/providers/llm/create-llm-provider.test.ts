import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../config';
import { createLlmProvider } from './create-llm-provider';
import { EmbeddedLlm } from './embedded-llm';
import { OpenAiLlm } from './openai-llm';

const logger = pino({ level: 'silent' });
const llm = (over: Partial<Config['llm']> = {}): Pick<Config, 'llm'> => ({
  llm: {
    provider: undefined,
    openai: undefined,
    contextTokens: undefined,
    threads: 2,
    timeoutMs: 5000,
    embedding: undefined,
    ...over,
  },
});
const server = { url: 'http://127.0.0.1:11434/v1', apiKey: undefined, model: 'qwen2.5:7b' };
const inStore = () => ({
  available: true as const,
  dir: '/m',
  files: { 'qwen2.5-coder-0.5b/model.gguf': '/m/model.gguf' },
});
const missing = () => ({
  available: false as const,
  reason: 'qwen2.5-coder-0.5b is unavailable: not fetched',
});

describe('createLlmProvider', () => {
  it('takes the server when LLM_OPENAI_URL is set, else the embedded model when the store has it', () => {
    const viaServer = createLlmProvider(llm({ openai: server }), { logger, modelFiles: inStore });
    expect(viaServer).toBeInstanceOf(OpenAiLlm);
    expect(viaServer.status()).toEqual({
      available: true,
      name: 'openai',
      model: 'qwen2.5:7b',
      toolCalls: true,
      contextTokens: 8192,
    });
    const embedded = createLlmProvider(llm(), { logger, modelFiles: inStore });
    expect(embedded).toBeInstanceOf(EmbeddedLlm);
    expect(embedded.status()).toMatchObject({ available: true, name: 'embedded', contextTokens: 4096 });
    // The embedded chat model computes no embeddings, and says so.
    expect(embedded.embeddings?.status()).toMatchObject({
      available: false,
      model: null,
      reason: expect.stringContaining('LLM_EMBEDDING_MODEL'),
    });
    expect(viaServer.embeddings).toBeUndefined();
    // With an embedding model, the embedded chat model gets it too.
    const both = createLlmProvider(
      llm({
        embedding: { url: server.url, apiKey: undefined, model: 'nomic-embed-text', minSimilarity: 0.3 },
      }),
      { logger, modelFiles: inStore },
    );
    expect(both.embeddings?.status()).toEqual({ available: true, model: 'nomic-embed-text' });
    // LLM_PROVIDER wins over the default.
    expect(
      createLlmProvider(llm({ provider: 'embedded', openai: server }), { logger, modelFiles: inStore }),
    ).toBeInstanceOf(EmbeddedLlm);
  });

  it('is unavailable, saying why, with no server and no model, or with LLM_PROVIDER=none', async () => {
    const none = createLlmProvider(llm(), { logger, modelFiles: missing });
    expect(none.status()).toMatchObject({ available: false, name: 'none', toolCalls: false });
    expect(none.status().reason).toMatch(
      /embedded model qwen2.5-coder-0.5b is unavailable: not fetched.*LLM_OPENAI_URL/,
    );
    const chat = none.chat({ messages: [{ role: 'user', content: 'Hi' }] })[Symbol.asyncIterator]();
    await expect(chat.next()).rejects.toMatchObject({ name: 'LlmError', kind: 'unavailable' });
    const off = createLlmProvider(llm({ provider: 'none', openai: server }), { logger, modelFiles: inStore });
    expect(off.status()).toMatchObject({
      available: false,
      reason: expect.stringContaining('LLM_PROVIDER=none'),
    });
  });
});
