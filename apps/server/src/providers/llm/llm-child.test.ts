import { describe, expect, it } from 'vitest';
import { chatHistory, grammarSchema, plainToolCall } from './llm-child';

const weather = {
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('the embedded model’s conversions', () => {
  it('turns OpenAI messages into a chat history, tool results into their calls’ results', () => {
    expect(
      chatHistory([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'rain' },
        { role: 'tool', tool_call_id: 'unknown', content: 'stray' },
      ]),
    ).toEqual([
      { type: 'system', text: 'Be brief.' },
      { type: 'user', text: 'Weather?' },
      {
        type: 'model',
        response: [{ type: 'functionCall', name: 'get_weather', params: { city: 'Oslo' }, result: 'rain' }],
      },
      { type: 'user', text: 'Tool result (unknown): stray' },
      { type: 'model', response: [] },
    ]);
  });

  it('keeps what the grammar can hold of a JSON schema and drops the rest', () => {
    expect(
      grammarSchema({
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 2, format: 'x', description: 'the city' },
          days: { type: ['integer', 'null'], maximum: 7 },
          unit: { enum: ['c', 'f'] },
          tags: { type: 'array', items: { type: 'string' } },
        },
        additionalProperties: false,
      }),
    ).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'the city' },
        days: { type: 'integer' },
        unit: { enum: ['c', 'f'] },
        tags: { type: 'array', items: { type: 'string' } },
      },
    });
  });

  it('reads a tool call the model wrote as plain JSON, only to a tool it was offered', () => {
    expect(plainToolCall('{"name": "get_weather", "arguments": {"city": "Paris"}}', [weather])).toEqual({
      name: 'get_weather',
      arguments: { city: 'Paris' },
      argumentsInvalid: false,
    });
    expect(
      plainToolCall('<tool_call>\n{"name": "get_weather", "arguments": "{\\"city\\": 1"}\n</tool_call>', [
        weather,
      ]),
    ).toEqual({
      name: 'get_weather',
      arguments: '{"city": 1',
      argumentsInvalid: true,
    });
    // An invented tool is handed over as a call, for the caller to refuse; a bare object with a name is text.
    expect(plainToolCall('{"name": "Cat Joke", "arguments": {"cat": "Meow"}}', [weather])).toEqual({
      name: 'Cat Joke',
      arguments: { cat: 'Meow' },
      argumentsInvalid: false,
    });
    expect(plainToolCall('{"name": "Tom", "age": 3}', [weather])).toBeUndefined();
    expect(plainToolCall('The weather is fine.', [weather])).toBeUndefined();
    expect(plainToolCall('{"name": "get_weather"', [weather])).toBeUndefined();
  });
});
