import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { modelFiles } from '../../platform/models/model-store';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { EMBEDDED_LLM_MODEL, EmbeddedLlm } from './embedded-llm';
import type { LlmEvent } from './llm-provider';

const noModel = modelsUnavailable(EMBEDDED_LLM_MODEL);

describe('the embedded LLM (node-llama-cpp in a child process)', () => {
  let llm: EmbeddedLlm | undefined;
  afterAll(() => llm?.close());

  it('streams a short completion from the model store’s GGUF', async (context) => {
    skipWithout(context, noModel);
    const files = modelFiles(EMBEDDED_LLM_MODEL);
    if (!files.available) throw new Error(files.reason);
    llm = new EmbeddedLlm({
      modelPath: files.files[`${EMBEDDED_LLM_MODEL}/model.gguf`] as string,
      threads: 2,
      contextTokens: 1024,
      timeoutMs: 120_000,
      logger: pino({ level: 'silent' }),
    });
    const events: LlmEvent[] = [];
    for await (const event of llm.chat({
      messages: [
        { role: 'system', content: 'You answer with one word.' },
        { role: 'user', content: 'What is the capital of France?' },
      ],
      maxTokens: 8,
    }))
      events.push(event);
    const text = events.map((e) => (e.type === 'text' ? e.delta : '')).join('');
    expect(text).toMatch(/paris/i);
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'done' });
    if (done?.type !== 'done') throw new Error('no done event');
    expect(done.usage.completionTokens).toBeGreaterThan(0);
    expect(done.usage.completionTokens).toBeLessThanOrEqual(8);
    expect(done.usage.promptTokens).toBeGreaterThan(10);
    expect(llm.status()).toMatchObject({ available: true, name: 'embedded', model: EMBEDDED_LLM_MODEL });
  }, 180_000);
});
