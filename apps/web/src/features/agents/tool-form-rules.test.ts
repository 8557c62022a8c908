import { describe, expect, it } from 'vitest';
import {
  checkToolForm,
  emptyToolForm,
  readToolFieldErrors,
  type ToolForm,
  toolFormOf,
  toolRequestOf,
} from './tool-form-rules';

const webhook: ToolForm = {
  ...emptyToolForm('webhook'),
  name: 'order_status',
  description: 'Looks up an order.',
  method: 'POST',
  url: 'https://api.example.com/orders/{order_id}',
  headers: [
    { name: 'Authorization', kind: 'secret', value: 'sec_1' },
    { name: 'X-Team', kind: 'text', value: 'support' },
    { name: 'X-Customer', kind: 'variable', value: 'customer_id' },
  ],
  params: [
    { name: 'order_id', location: 'path', type: 'string', description: 'The order number', required: true },
    { name: 'verbose', location: 'query', type: 'boolean', description: 'Details', required: false },
    { name: 'note', location: 'body', type: 'string', description: 'A note', required: true },
    {
      name: 'customer',
      location: 'body',
      type: 'string',
      description: '',
      required: false,
      fixed: { dynamic_variable: 'customer_id' },
    },
  ],
  timeout: '30',
};

describe('the tool form', () => {
  it('builds the contract’s webhook request: secret headers by id, parameters where they go', () => {
    expect(checkToolForm(webhook)).toEqual({});
    expect(toolRequestOf(webhook)).toEqual({
      tool_config: {
        type: 'webhook',
        name: 'order_status',
        description: 'Looks up an order.',
        disable_interruptions: false,
        response_timeout_secs: 30,
        api_schema: {
          url: 'https://api.example.com/orders/{order_id}',
          method: 'POST',
          request_headers: {
            Authorization: { secret_id: 'sec_1' },
            'X-Team': 'support',
            'X-Customer': { variable_name: 'customer_id' },
          },
          path_params_schema: { order_id: { type: 'string', description: 'The order number' } },
          query_params_schema: {
            properties: { verbose: { type: 'boolean', description: 'Details' } },
            required: [],
          },
          request_body_schema: {
            type: 'object',
            properties: {
              note: { type: 'string', description: 'A note' },
              customer: { type: 'string', dynamic_variable: 'customer_id' },
            },
            required: ['note'],
          },
        },
      },
    });
  });

  it('reads a saved tool back into the same form, keeping what the form does not show', () => {
    const request = toolRequestOf({
      ...webhook,
      kept: { force_pre_tool_speech: true, content_type: 'application/x-www-form-urlencoded' },
    });
    const form = toolFormOf({
      id: 't1',
      tool_config: request.tool_config as never,
      access_info: { is_creator: true, creator_name: 'Ada', creator_email: 'a@x', role: 'admin' },
      usage_stats: { total_calls: 0, avg_latency_secs: 0 },
    });
    expect(toolRequestOf(form)).toEqual(request);
  });

  it('puts the contract’s and its own complaints under the fields', () => {
    const errors = checkToolForm({
      ...webhook,
      name: 'has space',
      url: 'https://api.example.com/orders/{id}',
      timeout: 'soon',
      headers: [{ name: 'Authorization', kind: 'secret', value: '' }],
    });
    expect(errors.name).toMatch(/letters, digits/);
    expect(errors.timeout).toBe('Enter the timeout in seconds.');
    expect(errors.headers).toBe('Choose the secret each secret header sends.');
    expect(errors.params).toMatch(/\{id\}|order_id/);
    expect(checkToolForm({ ...emptyToolForm('client'), name: 'show_map', description: '' }).description).toBe(
      'Describe when the agent should use the tool.',
    );
  });

  it('maps a server 422 to the fields', () => {
    expect(
      readToolFieldErrors({
        detail: {
          errors: [{ loc: ['body', 'tool_config', 'api_schema', 'url'], msg: 'A private address.' }],
        },
      }),
    ).toEqual({ url: 'A private address.' });
  });
});
