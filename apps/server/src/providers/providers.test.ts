import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rnnoiseDenoise } from './denoise/rnnoise-denoise';
import { createProviders } from './index';
import { MoonshineStt, type SttEngines } from './stt/moonshine-stt';
import { ExternalTtsFailure, type TtsProvider } from './tts/tts-provider';
import { pitchFormantConversion } from './voice-conversion/pitch-formant-conversion';

const logger = pino({ level: 'silent' });
const keepOutbox = async () => undefined;
/** Stands in for the engine pool: one silent sample at 16 kHz, whatever it is asked to speak. */
const engines: TtsProvider & SttEngines = {
  size: 2,
  run: async () => {
    throw new Error('not asked in these tests');
  },
  synthesize: async () => ({ sampleRate: 16_000, samples: new Int16Array(1), words: [], timing: 'exact' }),
};
const config = (over: {
  externalTts?: { url: string; apiKey: string | undefined; model: string };
  smtpUrl?: string;
  billing?: 'none' | 'test';
}) => ({
  env: 'test' as const,
  engines: { poolSize: 1, timeoutMs: 5000 },
  externalTts: over.externalTts,
  externalStt: undefined,
  mail: { from: 'Parla <parla@localhost>', smtpUrl: over.smtpUrl },
  billing: { provider: over.billing ?? ('none' as const), stripe: undefined, renewalIntervalMs: 60_000 },
  publicUrl: 'http://127.0.0.1:8080',
  llm: {
    provider: 'none' as const,
    openai: undefined,
    contextTokens: undefined,
    threads: 1,
    timeoutMs: 5000,
    embedding: undefined,
  },
  translation: { prefer: 'offline' as const, libretranslate: undefined, openai: undefined, timeoutMs: 5000 },
});

describe('createProviders', () => {
  let server: ReturnType<typeof createServer>;
  let url: string;
  beforeAll(async () => {
    // An OpenAI-compatible speech server answering 0.1 s of pcm at 24 kHz.
    server = createServer((_req, res) => res.end(Buffer.alloc(4800)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('chooses the embedded defaults when nothing is configured', async () => {
    const providers = createProviders(config({}), { engines, keepOutbox, logger });
    expect(providers.stt).toBeInstanceOf(MoonshineStt);
    expect(providers.denoise).toBe(rnnoiseDenoise);
    expect(providers.voiceConversion).toBe(pitchFormantConversion);
    expect(providers.mail.kind).toBe('outbox');
    expect(providers.billing).toBeNull();
    expect(providers.tts.size).toBe(engines.size);
    expect(providers.llm.status()).toMatchObject({ available: false, name: 'none' });
    // No translation server: only what Apertium reaches on this machine, never a server route.
    expect(providers.translation.route('en', 'de')).toBeNull();
    const spoken = await providers.tts.synthesize({ engine: 'flite', voice: 'slt', text: 'Hello.' });
    expect(spoken.sampleRate).toBe(16_000);
    expect(() => providers.tts.synthesize({ engine: 'external', voice: 'alloy', text: 'Hello.' })).toThrow(
      ExternalTtsFailure,
    );
  });

  it('sends external voices to the configured speech server and mail over SMTP when set', async () => {
    const providers = createProviders(
      config({ externalTts: { url, apiKey: undefined, model: 'tts-1' }, smtpUrl: 'smtp://127.0.0.1:2525' }),
      { engines, keepOutbox, logger },
    );
    expect(providers.mail.kind).toBe('smtp');
    expect(createProviders(config({ billing: 'test' }), { engines, keepOutbox, logger }).billing?.name).toBe(
      'test',
    );
    const spoken = await providers.tts.synthesize({
      engine: 'external',
      voice: 'alloy',
      text: 'Hello there.',
    });
    expect(spoken).toMatchObject({ sampleRate: 24_000, timing: 'estimated' });
    expect(spoken.samples.length).toBe(2400);
    await providers.mail.close();
  });
});
