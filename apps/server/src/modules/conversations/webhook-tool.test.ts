import http from 'node:http';
import type { AddressInfo } from 'node:net';
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

describe("a webhook tool's headers that name a dynamic variable", () => {
  it("carry the conversation's value, not a literal {{name}}", async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const server = http.createServer((request, response) => {
      seen.push(request.headers);
      response.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const hook = tool(`http://127.0.0.1:${port}/orders/{id}`);
      if (hook.webhook) hook.webhook.headers = { authorization: 'secret', 'x-caller': '{{user_id}}' };
      const outcome = await callWebhookTool(
        hook,
        { id: '7' },
        {
          allowPrivate: true,
          variables: { user_id: 'caller-42' },
        },
      );
      expect(outcome.ok).toBe(true);
      expect(seen[0]?.['x-caller']).toBe('caller-42');
      expect(seen[0]?.authorization).toBe('secret');
      // A variable the conversation lacks, or one no header may carry: the model is told, nothing is sent.
      const missing = await callWebhookTool(hook, { id: '7' }, { allowPrivate: true, variables: {} });
      expect(missing.ok).toBe(false);
      expect(missing.text).toMatch(/needs the dynamic variable "user_id"/);
      const broken = await callWebhookTool(
        hook,
        { id: '7' },
        {
          allowPrivate: true,
          variables: { user_id: 'a\r\nx-injected: 1' },
        },
      );
      expect(broken.ok).toBe(false);
      expect(seen).toHaveLength(1);
    } finally {
      server.close();
    }
  });
});
