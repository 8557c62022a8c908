import { describe, expect, it } from 'vitest';
import type { LlmEvent } from './llm-provider';
import { CompletionAccumulator, completionEvents, sseData } from './openai-stream';

async function* bytes(...pieces: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield typeof piece === 'string' ? new TextEncoder().encode(piece) : piece;
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

describe('sseData', () => {
  it('yields each event’s data, whatever the line endings and wherever the chunks are cut', async () => {
    const text =
      'data: one\n\n: a comment\nevent: x\ndata: two\r\ndata: lines\r\n\r\ndata:three\r\rdata: last';
    // Every cut of the stream into two chunks gives the same events.
    for (let cut = 0; cut <= text.length; cut++) {
      const events = await collect(sseData(bytes(text.slice(0, cut), text.slice(cut))));
      expect(events, `cut at ${cut}`).toEqual(['one', 'two\nlines', 'three', 'last']);
    }
  });

  it('keeps a character whose bytes arrive in two chunks', async () => {
    const encoded = new TextEncoder().encode('data: café ☕\n\n');
    const events = await collect(sseData(bytes(encoded.slice(0, 10), encoded.slice(10))));
    expect(events).toEqual(['café ☕']);
  });
});

describe('CompletionAccumulator', () => {
  it('puts a tool call together from the pieces OpenAI streams, and parses its arguments', () => {
    const acc = new CompletionAccumulator();
    const events: LlmEvent[] = [];
    const piece = (tool_calls: unknown[], finish_reason: string | null = null) =>
      events.push(...acc.accept({ choices: [{ index: 0, delta: { tool_calls } as never, finish_reason }] }));
    piece([{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }]);
    piece([{ index: 1, id: 'call_b', type: 'function', function: { name: 'end_call', arguments: '' } }]);
    piece([{ index: 0, function: { arguments: '{"ci' } }]);
    piece([{ index: 1, function: { arguments: '{}' } }]);
    piece([{ index: 0, function: { arguments: 'ty": "Par' } }]);
    expect(events).toEqual([]); // nothing is handed over before the call is complete
    piece([{ index: 0, function: { arguments: 'is"}' } }], 'tool_calls');
    acc.accept({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 7 } });
    events.push(...acc.finish());
    expect(events).toEqual([
      {
        type: 'tool_call',
        call: { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' }, argumentsInvalid: false },
      },
      { type: 'tool_call', call: { id: 'call_b', name: 'end_call', arguments: {}, argumentsInvalid: false } },
      { type: 'done', finishReason: 'tool_calls', usage: { promptTokens: 12, completionTokens: 7 } },
    ]);
  });

  it('hands over arguments that do not parse as the raw string', () => {
    const acc = new CompletionAccumulator();
    acc.accept({
      choices: [
        { delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{"a": ' } }] } },
      ],
    });
    const events = acc.finish();
    expect(events[0]).toEqual({
      type: 'tool_call',
      call: { id: 'c', name: 'f', arguments: '{"a": ', argumentsInvalid: true },
    });
    // No finish reason from the server: a call was made, so the reason is tool_calls; no usage: nulls.
    expect(events[1]).toEqual({
      type: 'done',
      finishReason: 'tool_calls',
      usage: { promptTokens: null, completionTokens: null },
    });
  });

  it('takes calls without an index (sent whole) one per position', () => {
    const acc = new CompletionAccumulator();
    const events = acc.accept({
      choices: [
        {
          delta: {
            tool_calls: [
              { id: 'x', function: { name: 'a', arguments: '{"n":1}' } },
              { id: 'y', function: { name: 'b', arguments: '{"n":2}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
    const calls = [...events, ...acc.finish()].filter((e) => e.type === 'tool_call');
    expect(calls.map((e) => e.type === 'tool_call' && [e.call.name, e.call.arguments])).toEqual([
      ['a', { n: 1 }],
      ['b', { n: 2 }],
    ]);
  });
});

describe('completionEvents', () => {
  it('streams text deltas in order and ends with done at [DONE]', async () => {
    const chunk = (content: string | null, finish: string | null = null) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`;
    const events = await collect(
      completionEvents(
        bytes(
          chunk(''),
          chunk('Hel'),
          chunk('lo'),
          chunk(null, 'length'),
          'data: [DONE]\n\n',
          chunk('ignored'),
        ),
      ),
    );
    expect(events).toEqual([
      { type: 'text', delta: 'Hel' },
      { type: 'text', delta: 'lo' },
      { type: 'done', finishReason: 'length', usage: { promptTokens: null, completionTokens: null } },
    ]);
  });

  it('fails as upstream on an error event or on data that is not JSON', async () => {
    await expect(
      collect(completionEvents(bytes('data: {"error":{"message":"overloaded"}}\n\n'))),
    ).rejects.toMatchObject({
      kind: 'upstream',
      message: expect.stringContaining('overloaded'),
    });
    await expect(collect(completionEvents(bytes('data: {nope\n\n')))).rejects.toMatchObject({
      kind: 'upstream',
    });
  });
});
