import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedLlm, startScriptedLlm } from '../../test/scripted-llm';
import type { ChatRequest, LlmEvent } from './llm-provider';
import { OpenAiLlm } from './openai-llm';

let llm: ScriptedLlm;
let provider: OpenAiLlm;

beforeAll(async () => {
  llm = await startScriptedLlm();
  provider = new OpenAiLlm({
    url: llm.url,
    apiKey: 'sk-test',
    model: 'scripted-model',
    timeoutMs: 2000,
    contextTokens: 8192,
  });
});
afterAll(() => llm.close());

async function events(request: ChatRequest): Promise<LlmEvent[]> {
  const out: LlmEvent[] = [];
  for await (const event of provider.chat(request)) out.push(event);
  return out;
}

describe('the OpenAI-compatible adapter against the scripted server', () => {
  it('streams the text in deltas and sends the request OpenAI expects', async () => {
    llm.enqueue({ text: 'The bakery opens at nine on Saturdays.' });
    const got = await events({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'When do you open?' },
      ],
      temperature: 0.3,
      maxTokens: 50,
    });
    const texts = got.filter((e) => e.type === 'text');
    expect(texts.length).toBeGreaterThan(3); // streamed, not one piece
    expect(texts.map((e) => e.type === 'text' && e.delta).join('')).toBe(
      'The bakery opens at nine on Saturdays.',
    );
    expect(got.at(-1)).toMatchObject({ type: 'done', finishReason: 'stop', usage: { completionTokens: 7 } });
    const sent = llm.requests.at(-1);
    expect(sent?.headers.authorization).toBe('Bearer sk-test');
    expect(sent?.body).toMatchObject({
      model: 'scripted-model',
      stream: true,
      temperature: 0.3,
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'When do you open?' },
      ],
    });
    expect(sent?.body.tools).toBeUndefined();
  });

  it('hands over a tool call whole and sends tools and earlier calls in OpenAI’s shape', async () => {
    llm.enqueue({
      text: 'Let me check.',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } }],
    });
    const got = await events({
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_0', name: 'get_time', arguments: '{}' }],
        },
        { role: 'tool', tool_call_id: 'call_0', content: '12:00' },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'The weather in a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      ],
    });
    expect(got.filter((e) => e.type === 'tool_call')).toEqual([
      {
        type: 'tool_call',
        call: {
          id: 'call_1',
          name: 'get_weather',
          arguments: { city: 'Paris', unit: 'celsius' },
          argumentsInvalid: false,
        },
      },
    ]);
    expect(got.at(-1)).toMatchObject({ type: 'done', finishReason: 'tool_calls' });
    const sent = llm.requests.at(-1)?.body;
    expect(sent?.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'The weather in a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ]);
    expect(sent?.messages?.[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'get_time', arguments: '{}' } }],
    });
    expect(sent?.messages?.[2]).toEqual({ role: 'tool', tool_call_id: 'call_0', content: '12:00' });
  });

  it('fails as upstream with the server’s status and its own message on a 500', async () => {
    llm.enqueue({ status: 500, error: 'the model ran out of memory' });
    const error = await events({ messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'LlmError', kind: 'upstream', upstreamStatus: 500 });
    expect((error as Error).message).toBe('The LLM server answered 500: the model ran out of memory');
  });

  it('fails as upstream on an error streamed mid-answer', async () => {
    llm.enqueue({ text: 'Partly', streamError: 'context overflow' });
    await expect(events({ messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      kind: 'upstream',
      message: expect.stringContaining('context overflow'),
    });
  });

  it('stops on abort: the stream ends with an aborted error and the server sees the request closed', async () => {
    llm.enqueue({ text: 'one two three four five six seven eight nine ten', delayMs: 100 });
    const controller = new AbortController();
    const got: LlmEvent[] = [];
    const error = await (async () => {
      for await (const event of provider.chat({
        messages: [{ role: 'user', content: 'Count' }],
        signal: controller.signal,
      })) {
        got.push(event);
        if (got.length === 2) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'aborted' });
    expect(got.length).toBe(2);
    expect(got.some((e) => e.type === 'done')).toBe(false);
  });

  it('times out when the server sends nothing', async () => {
    const quick = new OpenAiLlm({
      url: llm.url,
      apiKey: undefined,
      model: 'm',
      timeoutMs: 300,
      contextTokens: 4096,
    });
    llm.enqueue({ hang: true });
    const started = performance.now();
    const error = await (async () => {
      for await (const _ of quick.chat({ messages: [{ role: 'user', content: 'Hi' }] })) {
        // nothing arrives
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout' });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('says unavailable when no server listens there', async () => {
    const nowhere = new OpenAiLlm({
      url: 'http://127.0.0.1:9/v1',
      apiKey: undefined,
      model: 'm',
      timeoutMs: 2000,
      contextTokens: 4096,
    });
    await expect(
      (async () => {
        for await (const _ of nowhere.chat({ messages: [{ role: 'user', content: 'Hi' }] })) {
          // nothing
        }
      })(),
    ).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining('could not be reached'),
    });
  });
});
