// @postgres-leg skip: the OpenAI-shaped call over the same service; tts.int covers its rows on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeAudio } from '../../test/audio-probe';
import { signUpWithApiKey } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let baseUrl: string;
let key: string;
beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2', ENGINE_TIMEOUT_MS: '20000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  key = (await signUpWithApiKey(t.app)).apiKey;
});
afterAll(() => t.close());

/** As OpenAI's clients call it: the API key as a Bearer token. */
const speech = (body: Record<string, unknown>) =>
  fetch(`${baseUrl}/v1/audio/speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Hello from the OpenAI-style endpoint.',
      ...body,
    }),
  });

describe('POST /v1/audio/speech (OpenAI-compatible)', () => {
  it.each([
    ['mp3', 'mp3'],
    ['opus', 'opus'],
    ['wav', 'pcm_s16le'],
    ['flac', 'flac'],
    ['aac', 'aac'],
  ])('answers %s', async (format, codec) => {
    const res = await speech({ response_format: format });
    expect(res.status).toBe(200);
    const probed = probeAudio(Buffer.from(await res.arrayBuffer()));
    expect(probed.codec).toBe(codec);
    expect(probed.seconds).toBeGreaterThan(1);
  });

  it('answers raw 24 kHz pcm, and speaks faster at speed 2', async () => {
    const normal = Buffer.from(await (await speech({ response_format: 'pcm' })).arrayBuffer());
    const fast = Buffer.from(await (await speech({ response_format: 'pcm', speed: 2 })).arrayBuffer());
    expect(normal.length / 2 / 24000).toBeGreaterThan(1);
    expect(fast.length / normal.length).toBeLessThan(0.7);
  });

  it('accepts a premade voice by name, and refuses an unknown voice or model with 422', async () => {
    expect((await speech({ voice: 'Lucía', input: 'Hola a todos.' })).status).toBe(200);
    const voice = await speech({ voice: 'nobody' });
    expect(voice.status).toBe(422);
    expect(
      ((await voice.json()) as { detail: { errors: { loc: string[] }[] } }).detail.errors[0]?.loc,
    ).toEqual(['body', 'voice']);
    expect((await speech({ model: 'whisper-1' })).status).toBe(422);
  });

  it('needs a key', async () => {
    const res = await fetch(`${baseUrl}/v1/audio/speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: 'x' }),
    });
    expect(res.status).toBe(401);
  });
});
