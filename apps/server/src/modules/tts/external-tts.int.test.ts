import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorResponse, PREMADE_VOICES } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeAudio } from '../../test/audio-probe';
import { signUpWithApiKey } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

/** A stand-in OpenAI-compatible speech server: 24 kHz PCM, 50 ms per input character; "FAIL" makes it fail. */
const received: { authorization?: string; body: Record<string, unknown> }[] = [];
const speechServer = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => {
    raw += chunk;
  });
  req.on('end', () => {
    const body = JSON.parse(raw) as { input: string };
    received.push({ authorization: req.headers.authorization, body });
    if (req.url !== '/v1/audio/speech' || body.input.includes('FAIL')) {
      res.writeHead(500).end();
      return;
    }
    const samples = new Int16Array(Math.round(24_000 * 0.05 * body.input.length)).map((_, i) =>
      Math.round(6000 * Math.sin((2 * Math.PI * 220 * i) / 24_000)),
    );
    res.writeHead(200, { 'content-type': 'audio/pcm' }).end(Buffer.from(samples.buffer));
  });
});

let t: TestApp;
let plain: TestApp;
beforeAll(async () => {
  await new Promise<void>((resolve) => speechServer.listen(0, '127.0.0.1', resolve));
  const { port } = speechServer.address() as AddressInfo;
  t = await createTestApp({
    env: {
      TTS_OPENAI_URL: `http://127.0.0.1:${port}/`,
      TTS_OPENAI_API_KEY: 'remote-secret',
      TTS_OPENAI_MODEL: 'kokoro',
    },
  });
  plain = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await plain.close();
  await new Promise((resolve) => speechServer.close(resolve));
});

const voiceId = PREMADE_VOICES.find((v) => v.name === 'Sarah')?.voice_id ?? '';

describe('an OpenAI-compatible speech server as a provider (TTS_OPENAI_URL)', () => {
  it('offers parla_external_v1 and speaks through the server, sentence by sentence', async () => {
    const { apiKey } = await signUpWithApiKey(t.app);
    const models = (
      await t.app.inject({ method: 'GET', url: '/v1/models', headers: { 'xi-api-key': apiKey } })
    ).json();
    expect(models.map((m: { model_id: string }) => m.model_id)).toContain('parla_external_v1');

    const text = 'First part here. Second part.';
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/text-to-speech/${voiceId}`,
      headers: { 'xi-api-key': apiKey },
      payload: { text, model_id: 'parla_external_v1' },
    });
    expect(res.statusCode).toBe(200);
    // 16 + 12 characters at 50 ms each.
    expect(probeAudio(res.rawPayload).seconds).toBeCloseTo(1.4, 1);
    const calls = received.slice(-2);
    expect(calls.map((c) => c.body.input)).toEqual(['First part here.', 'Second part.']);
    expect(calls[0]).toEqual({
      authorization: 'Bearer remote-secret',
      body: { model: 'kokoro', voice: 'nova', input: 'First part here.', response_format: 'pcm', speed: 1 },
    });
  });

  it('turns a failing server into a clean 503 with nothing charged', async () => {
    const { apiKey } = await signUpWithApiKey(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/text-to-speech/${voiceId}`,
      headers: { 'xi-api-key': apiKey },
      payload: { text: 'Please FAIL now.', model_id: 'parla_external_v1' },
    });
    expect(res.statusCode).toBe(503);
    expect(ErrorResponse.parse(res.json()).detail.message).toContain('Nothing was charged');
    const user = (
      await t.app.inject({ method: 'GET', url: '/v1/user', headers: { 'xi-api-key': apiKey } })
    ).json();
    expect(user.subscription.character_count).toBe(0);
  });

  it('is neither listed nor accepted without TTS_OPENAI_URL', async () => {
    const { apiKey } = await signUpWithApiKey(plain.app);
    const models = (
      await plain.app.inject({ method: 'GET', url: '/v1/models', headers: { 'xi-api-key': apiKey } })
    ).json();
    expect(models.map((m: { model_id: string }) => m.model_id)).not.toContain('parla_external_v1');
    const res = await plain.app.inject({
      method: 'POST',
      url: `/v1/text-to-speech/${voiceId}`,
      headers: { 'xi-api-key': apiKey },
      payload: { text: 'Hello.', model_id: 'parla_external_v1' },
    });
    expect(res.statusCode).toBe(422);
  });
});
