import fs from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { PcmAudio } from '@parla/audio';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAudio } from '../../platform/media/encode-audio';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { fliteSpeech, joinWithPauses } from '../../test/test-signals';
import { EnginePool } from '../engines/engine-pool';
import { MoonshineStt } from './moonshine-stt';

/** The speech is found by the real voice-activity model: skipped, with the reason, where it is unavailable. */
const noModel = modelsUnavailable('silero-vad');

/**
 * A stand-in for an operator's Whisper server: it answers each request with the size of the WAV it got
 * and the form fields it was sent, so the test sees what the adapter sent and how it maps the answer.
 */
let requests: { fields: string; bytes: number }[] = [];
let status = 200;
const server = createServer(async (req: IncomingMessage, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const fields = body.toString('latin1');
  requests.push({ fields, bytes: body.length });
  if (status !== 200) {
    res.writeHead(status).end('{"error":"down"}');
    return;
  }
  const seconds = (body.length - 44) / 32_000;
  res.setHeader('content-type', 'application/json');
  res.end(
    JSON.stringify({
      text: ' Bonjour tout le monde.',
      language: 'french',
      words: [
        { word: ' Bonjour', start: 0.2, end: 0.6 },
        { word: ' tout', start: 0.6, end: 0.8 },
        { word: ' le', start: 0.8, end: 0.9 },
        { word: ' monde.', start: 0.9, end: Math.min(seconds, 1.4) },
      ],
    }),
  );
});

let pool: EnginePool;
let url: string;
let dir: string;
let file: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pool = new EnginePool({ size: 2, timeoutMs: 60_000, logger: pino({ level: 'silent' }) });
  await pool.start();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stt-server-test-'));
  const one = await fliteSpeech('slt', 'The first sentence is here.');
  const two = await fliteSpeech('awb', 'And the second one comes later.');
  file = path.join(dir, 'two.wav');
  await fs.writeFile(
    file,
    await encodeAudio({ ...joinWithPauses(one, two), channels: 1 } as PcmAudio, 'wav_16000'),
  );
}, 60_000);
afterAll(async () => {
  await pool.stop();
  server.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('the OpenAI-compatible transcription server adapter', () => {
  it('sends each stretch of speech as WAV and maps words, times and the detected language', {
    timeout: 60_000,
  }, async (context) => {
    skipWithout(context, noModel);
    requests = [];
    status = 200;
    const stt = new MoonshineStt(pool, {
      url,
      apiKey: 'k',
      model: 'whisper-large',
      languages: ['fr', 'en'],
      timeoutMs: 10_000,
    });
    expect(stt.languages('external')).toEqual(['fr', 'en']);
    const heard = await stt.transcribeFile({ file, model: 'external', timestamps: 'word', tenant: 't' });
    expect(requests).toHaveLength(2);
    expect(requests[0]?.fields).toContain('whisper-large');
    expect(requests[0]?.fields).toContain('verbose_json');
    expect(requests[0]?.fields).toContain('RIFF');
    expect(heard.languageCode).toBe('fra');
    expect(heard.languageProbability).toBe(1);
    expect(heard.segments).toHaveLength(2);
    expect(heard.segments[0]?.text).toBe('Bonjour tout le monde.');
    const second = heard.segments[1];
    // The second segment's words are placed at its own time in the file.
    expect(second?.words[0]?.start).toBeGreaterThan(1.5);
    expect(second?.words.map((w) => w.text)).toEqual(['Bonjour', 'tout', 'le', 'monde.']);
  });

  it('passes the asked language on and fails clearly when the server fails', {
    timeout: 60_000,
  }, async (context) => {
    skipWithout(context, noModel);
    requests = [];
    const stt = new MoonshineStt(pool, {
      url,
      apiKey: undefined,
      model: 'whisper-1',
      languages: ['fr'],
      timeoutMs: 10_000,
    });
    status = 200;
    const heard = await stt.transcribeFile({
      file,
      model: 'external',
      language: 'fra',
      timestamps: 'none',
      tenant: 't',
    });
    expect(requests[0]?.fields).toMatch(/name="language"\r\n\r\nfr\r\n/);
    expect(heard.segments[0]?.words).toEqual([]);
    status = 503;
    await expect(
      stt.transcribeFile({ file, model: 'external', timestamps: 'none', tenant: 't' }),
    ).rejects.toThrow(/answered 503/);
  });

  it('refuses the external model when no server is configured', async () => {
    const stt = new MoonshineStt(pool);
    expect(stt.languages('external')).toEqual([]);
    await expect(
      stt.transcribeFile({ file, model: 'external', timestamps: 'none', tenant: 't' }),
    ).rejects.toThrow(/not configured/);
  });
});
