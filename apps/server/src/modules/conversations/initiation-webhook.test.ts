import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchInitiationData, MAX_ANSWER_BYTES, mergeInitiationData } from './initiation-webhook';

/** The initiation webhook's call: its limits, against a local 127.0.0.1 receiver. */

let server: http.Server;
let url: string;
beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url === '/slow') return void setTimeout(() => response.end('{}'), 1_000);
    if (request.url === '/huge') return void response.end(`{"x":"${'a'.repeat(MAX_ANSWER_BYTES)}"}`);
    if (request.url === '/redirect') {
      response.writeHead(302, { location: 'http://169.254.169.254/latest' });
      return void response.end();
    }
    response.end(JSON.stringify({ dynamic_variables: { name: 'Ada' } }));
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const body = { agent_id: 'agent_1', user_id: null, caller_id: null, called_number: null, call_sid: null };

describe('the conversation initiation webhook', () => {
  it('reads the answer as initiation data (its type may be left out)', async () => {
    const data = await fetchInitiationData({ url: `${url}/ok`, headers: {} }, body, { allowPrivate: true });
    expect(data.dynamic_variables).toEqual({ name: 'Ada' });
  });

  it('refuses a private address unless the operator allows it, before any request', async () => {
    await expect(
      fetchInitiationData({ url: `${url}/ok`, headers: {} }, body, { allowPrivate: false }),
    ).rejects.toThrow(/its address is private \(127\.0\.0\.1\)/);
  });

  it('gives up after its time limit, and on an answer too large', async () => {
    await expect(
      fetchInitiationData({ url: `${url}/slow`, headers: {} }, body, { allowPrivate: true, timeoutMs: 100 }),
    ).rejects.toThrow(/did not answer within 0.1 s/);
    await expect(
      fetchInitiationData({ url: `${url}/huge`, headers: {} }, body, { allowPrivate: true }),
    ).rejects.toThrow(/larger than 64 KB/);
  });

  it('follows no redirect (a redirect to a private address would slip past the check)', async () => {
    await expect(
      fetchInitiationData({ url: `${url}/redirect`, headers: {} }, body, { allowPrivate: true }),
    ).rejects.toThrow(/answered HTTP 302/);
  });

  it("puts the workspace server's values over the page's, keeping the page's user", () => {
    const merged = mergeInitiationData(
      {
        type: 'conversation_initiation_client_data',
        user_id: 'u1',
        dynamic_variables: { name: 'Mallory', page: 'home' },
        conversation_config_override: { agent: { language: 'fr' }, tts: { speed: 1.1 } },
      },
      {
        type: 'conversation_initiation_client_data',
        user_id: 'other',
        dynamic_variables: { name: 'Ada' },
        conversation_config_override: { agent: { first_message: 'Hi' } },
      },
    );
    expect(merged.user_id).toBe('u1');
    expect(merged.dynamic_variables).toEqual({ name: 'Ada', page: 'home' });
    expect(merged.conversation_config_override?.agent).toMatchObject({ language: 'fr', first_message: 'Hi' });
    expect(merged.conversation_config_override?.tts).toEqual({ speed: 1.1 });
  });
});
