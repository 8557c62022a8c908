// @postgres-leg skip: checks the provider's wiring from the config; no database work of its own
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedLlm, startScriptedLlm } from '../../test/scripted-llm';
import { createTestApp, type TestApp } from '../../test/test-app';
import type { LlmEvent } from './llm-provider';

let llm: ScriptedLlm;
let t: TestApp;

beforeAll(async () => {
  llm = await startScriptedLlm();
  t = await createTestApp({ env: { LLM_OPENAI_URL: llm.url, LLM_OPENAI_MODEL: 'scripted-model' } });
});
afterAll(async () => {
  await t?.close();
  await llm?.close();
});

describe('deps.providers.llm from the config', () => {
  it('is the OpenAI-compatible server named by LLM_OPENAI_URL, streaming what it answers', async () => {
    expect(t.deps.providers.llm.status()).toMatchObject({
      available: true,
      name: 'openai',
      model: 'scripted-model',
    });
    llm.enqueue({ text: 'Hello from the stand-in.' });
    const events: LlmEvent[] = [];
    for await (const event of t.deps.providers.llm.chat({ messages: [{ role: 'user', content: 'Hi' }] }))
      events.push(event);
    expect(events.map((e) => (e.type === 'text' ? e.delta : '')).join('')).toBe('Hello from the stand-in.');
    expect(llm.requests.at(-1)?.body.model).toBe('scripted-model');
  });
});
