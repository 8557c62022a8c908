import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ElevenLabsClient, ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { PREMADE_VOICES } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithApiKey } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let baseUrl: string;
let sdk: ElevenLabsClient;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  key = (await signUpWithApiKey(t.app)).apiKey;
  sdk = new ElevenLabsClient({ apiKey: key, baseUrl, maxRetries: 0 });
});
afterAll(() => t.close());

describe('models and voices through the official client', () => {
  it('lists the models, with the default public ids as aliases', async () => {
    const models = await sdk.models.list();
    const ids = models.map((m) => m.modelId);
    expect(ids).toEqual(
      expect.arrayContaining([
        'parla_v1',
        'parla_multilingual_v1',
        'parla_english_v1',
        'eleven_multilingual_v2',
        'eleven_flash_v2_5',
        'eleven_v3',
      ]),
    );
    const multilingual = models.find((m) => m.modelId === 'parla_multilingual_v1');
    expect(multilingual?.languages?.length).toBeGreaterThanOrEqual(20);
    expect(models.find((m) => m.modelId === 'parla_english_v1')?.languages?.map((l) => l.languageId)).toEqual(
      ['en'],
    );
  });

  it('lists every premade voice and reads one', async () => {
    const { voices } = await sdk.voices.getAll();
    expect(voices).toHaveLength(PREMADE_VOICES.length);
    const sarah = voices.find((v) => v.name === 'Sarah');
    expect(sarah).toMatchObject({ category: 'premade', labels: { gender: 'female', accent: 'american' } });
    const one = await sdk.voices.get(sarah?.voiceId ?? '');
    expect(one.name).toBe('Sarah');
    expect(one.settings).toMatchObject({ stability: 0.5, similarityBoost: 0.75 });
  });

  it('searches with pages', async () => {
    const british = await sdk.voices.search({ search: 'british' });
    // Charlotte and Oliver, and Kokoro's other six British voices (issue 27).
    expect(british.voices.map((v) => v.name).sort()).toEqual(
      PREMADE_VOICES.filter((v) => v.labels.accent === 'british')
        .map((v) => v.name)
        .sort(),
    );
    expect(british.voices.map((v) => v.name)).toEqual(
      expect.arrayContaining(['Charlotte', 'Oliver', 'Fable']),
    );
    const first = await sdk.voices.search({ pageSize: 10, includeTotalCount: true });
    expect(first).toMatchObject({ hasMore: true, totalCount: PREMADE_VOICES.length });
    const second = await sdk.voices.search({ pageSize: 10, nextPageToken: first.nextPageToken ?? '' });
    const names = [...first.voices, ...second.voices].map((v) => v.name);
    expect(new Set(names).size).toBe(20);
    expect(names.slice(0, 3)).toEqual(
      [...names.slice(0, 3)].sort((a, b) => (a ?? '').localeCompare(b ?? '')),
    );
  });

  it('answers 404 for an unknown voice, in the error shape', async () => {
    const error = await sdk.voices.get('NoSuchVoice000000000').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElevenLabsError);
    expect((error as ElevenLabsError).statusCode).toBe(404);
  });

  it('serves a real preview: an mp3 of the voice saying its name', async () => {
    const voice = PREMADE_VOICES.find((v) => v.name === 'Kevin');
    const res = await fetch(`${baseUrl}/v1/voices/${voice?.voice_id}/preview`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parla-preview-')), 'p.mp3');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const seconds = Number(
      execFileSync('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'format=duration',
        '-of',
        'csv=p=0',
        file,
      ]).toString(),
    );
    expect(seconds).toBeGreaterThan(2);
    expect(seconds).toBeLessThan(8);
    // The second ask comes from storage.
    const again = await fetch(`${baseUrl}/v1/voices/${voice?.voice_id}/preview`);
    expect(Buffer.from(await again.arrayBuffer()).equals(fs.readFileSync(file))).toBe(true);
  });

  it('needs a caller for the lists', async () => {
    expect((await fetch(`${baseUrl}/v1/voices`)).status).toBe(401);
    expect((await fetch(`${baseUrl}/v1/models`)).status).toBe(401);
  });
});
