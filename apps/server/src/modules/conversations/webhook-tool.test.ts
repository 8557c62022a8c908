import { describe, expect, it } from 'vitest';
import type { SessionTool } from './session-agent';
import { callWebhookTool } from './webhook-tool';

const tool = (url: string): SessionTool => ({
  name: 'lookup',
  description: 'Looks something up.',
  parameters: { type: 'object' },
  type: 'webhook',
  webhook: {
    url,
    method: 'GET',
    headers: { authorization: 'secret' },
    pathParams: ['id', 'tld'],
    queryParams: [],
    timeoutMs: 1000,
  },
});

describe("a webhook tool's address is the tool's, whatever the model fills in", () => {
  it('refuses a path parameter that climbs out of its place', async () => {
    const outcome = await callWebhookTool(
      tool('https://api.example.com/orders/{id}'),
      { id: '..' },
      { allowPrivate: false },
    );
    expect(outcome).toEqual({ ok: false, text: 'id may not be "..".', statusCode: null });
  });

  it('refuses a URL whose host is a parameter, before any call (the secrets would go elsewhere)', async () => {
    const outcome = await callWebhookTool(
      tool('https://api.{tld}/orders'),
      { tld: 'evil.example' },
      { allowPrivate: false },
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.text).toMatch(/names its host with a parameter/);
  });

  it('refuses a private address unless the operator allows it', async () => {
    const outcome = await callWebhookTool(
      tool('http://127.0.0.1:9/orders/{id}'),
      { id: '7' },
      { allowPrivate: false },
    );
    expect(outcome.text).toMatch(/private \(127\.0\.0\.1\)/);
  });
});
