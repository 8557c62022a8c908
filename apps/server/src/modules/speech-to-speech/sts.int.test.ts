// @postgres-leg skip: voice conversion on the engines; tts.int covers the same metering and history rows on PostgreSQL.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { analyzeVoice, type PcmAudio } from '@parla/audio';
import { speechToSpeechCost } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeToPcm } from '../../platform/media/decode-audio';
import { ModelStore } from '../../platform/models/model-store';
import { probeAudio, readAll } from '../../test/audio-probe';
import {
  characterCountOf,
  historyRowsOf,
  newSpeechAccount,
  premadeVoiceId,
  type SpeechAccount,
  setCharacterCount,
} from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { makeMediaFile } from '../../test/test-signals';

let t: TestApp;
let baseUrl: string;
const db = () => t.deps.database.db;
const newAccount = () => newSpeechAccount(t.app, baseUrl);

/** A male voice's speech (flite rms), the input of every conversion here. */
let maleMp3: Buffer;
let malePcm: PcmAudio;
const TEXT = 'The meeting has been moved to Thursday afternoon. Please bring the quarterly report with you.';
const FEMALE = premadeVoiceId('Sarah');

beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2', ENGINE_TIMEOUT_MS: '20000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { sdk } = await newAccount();
  maleMp3 = await readAll(
    await sdk.textToSpeech.convert(premadeVoiceId('Ryan'), { text: TEXT, modelId: 'eleven_multilingual_v2' }),
  );
  malePcm = await decodeToPcm(maleMp3, { sampleRate: 16_000, maxSeconds: 60 });
}, 60_000);
afterAll(() => t.close());

const medianOf = (pcm: PcmAudio) => analyzeVoice(pcm).pitch.medianHz ?? Number.NaN;
const secondsOf = (pcm: PcmAudio) => pcm.samples.length / pcm.sampleRate;

/** A multipart call with fetch, for what the official client cannot send (no audio, raw fields). */
async function postForm(
  account: SpeechAccount,
  voiceId: string,
  fields: Record<string, string>,
  file?: { bytes: Uint8Array; name: string },
  path = '',
) {
  const form = new FormData();
  if (file) form.append('audio', new Blob([file.bytes]), file.name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const response = await fetch(`${baseUrl}/v1/speech-to-speech/${voiceId}${path}`, {
    method: 'POST',
    headers: { 'xi-api-key': account.key },
    body: form,
  });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

describe('speech to speech with the official client', () => {
  it('convert: keeps the timing, moves the pitch to the target voice, charges by the second, keeps an STS item', async () => {
    const account = await newAccount();
    const out = await readAll(
      await account.sdk.speechToSpeech.convert(FEMALE, {
        audio: new Blob([maleMp3], { type: 'audio/mpeg' }),
        modelId: 'eleven_multilingual_sts_v2',
      }),
    );
    expect(probeAudio(out)).toMatchObject({ codec: 'mp3', sampleRate: 44100, channels: 1 });
    const converted = await decodeToPcm(out, { sampleRate: 16_000, maxSeconds: 60 });
    const durationError = Math.abs(secondsOf(converted) - secondsOf(malePcm)) / secondsOf(malePcm);
    expect(durationError).toBeLessThan(0.05);

    const target = await decodeToPcm(
      Buffer.from(await (await fetch(`${baseUrl}/v1/voices/${FEMALE}/preview`)).arrayBuffer()),
      { sampleRate: 16_000, maxSeconds: 60 },
    );
    const [before, after, wanted] = [medianOf(malePcm), medianOf(converted), medianOf(target)];
    console.info(
      `STS figures: duration error ${(durationError * 100).toFixed(2)} %, median pitch before ${before.toFixed(1)} Hz, after ${after.toFixed(1)} Hz, target ${wanted.toFixed(1)} Hz`,
    );
    expect(after).toBeGreaterThan(before * 1.2);
    expect(Math.abs(after - wanted) / wanted).toBeLessThan(0.15);

    // 1,000 credits per minute, per started second of the input (decoded at 24 kHz: the mp3's length).
    const rows = await historyRowsOf(db(), account.workspaceId);
    expect(rows).toHaveLength(1);
    const charged = (await characterCountOf(db(), account.workspaceId)) ?? 0;
    expect(charged).toBe(speechToSpeechCost(rows[0]?.durationMs ? rows[0].durationMs / 1000 : 0));
    expect(charged).toBeGreaterThanOrEqual(Math.ceil((Math.ceil(secondsOf(malePcm)) * 1000) / 60));
    expect(rows[0]).toMatchObject({
      source: 'STS',
      text: '',
      voiceId: FEMALE,
      voiceName: 'Sarah',
      modelId: 'eleven_multilingual_sts_v2',
      characterCountChangeFrom: 0,
      characterCountChangeTo: charged,
    });
    const listed = (await (
      await fetch(`${baseUrl}/v1/history?source=STS`, { headers: { 'xi-api-key': account.key } })
    ).json()) as { history: { history_item_id: string; source: string; text: string }[] };
    expect(listed.history).toHaveLength(1);
    expect(listed.history[0]).toMatchObject({ source: 'STS', text: '', history_item_id: rows[0]?.id });
    const tts = (await (
      await fetch(`${baseUrl}/v1/history?source=TTS`, { headers: { 'xi-api-key': account.key } })
    ).json()) as { history: unknown[] };
    expect(tts.history).toHaveLength(0);

    // Another workspace does not see the item.
    const other = await newAccount();
    const foreign = await fetch(`${baseUrl}/v1/history/${rows[0]?.id}`, {
      headers: { 'xi-api-key': other.key },
    });
    expect(foreign.status).toBe(404);
  }, 60_000);

  it('sends the generation headers, and the model of the call by default', async () => {
    const account = await newAccount();
    const { response } = await postForm(account, FEMALE, {}, { bytes: maleMp3, name: 'me.mp3' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const [row] = await historyRowsOf(db(), account.workspaceId);
    expect(response.headers.get('history-item-id')).toBe(row?.id);
    expect(response.headers.get('x-character-count')).toBe(
      String(await characterCountOf(db(), account.workspaceId)),
    );
    expect(response.headers.get('request-id')).toBeTruthy();
    expect(row?.modelId).toBe('eleven_multilingual_sts_v2');
  }, 60_000);

  it('stream: the converted audio in chunks, in the output format asked', async () => {
    const account = await newAccount();
    const out = await readAll(
      await account.sdk.speechToSpeech.stream(FEMALE, {
        audio: new Blob([maleMp3]),
        modelId: 'eleven_english_sts_v2',
        outputFormat: 'mp3_22050_32',
        removeBackgroundNoise: true,
      }),
    );
    expect(probeAudio(out)).toMatchObject({ codec: 'mp3', sampleRate: 22050 });
    const converted = await decodeToPcm(out, { sampleRate: 16_000, maxSeconds: 60 });
    expect(Math.abs(secondsOf(converted) - secondsOf(malePcm)) / secondsOf(malePcm)).toBeLessThan(0.05);
    expect(medianOf(converted)).toBeGreaterThan(medianOf(malePcm) * 1.2);
    const [row] = await historyRowsOf(db(), account.workspaceId);
    expect(row).toMatchObject({
      source: 'STS',
      modelId: 'eleven_english_sts_v2',
      outputFormat: 'mp3_22050_32',
    });
  }, 60_000);

  it('file_format=pcm_s16le_16: raw 16 kHz PCM in, pcm out, with voice settings kept on the item', async () => {
    const account = await newAccount();
    const raw = Buffer.from(malePcm.samples.buffer, malePcm.samples.byteOffset, malePcm.samples.byteLength);
    const out = await readAll(
      await account.sdk.speechToSpeech.convert(FEMALE, {
        audio: new Blob([raw]),
        fileFormat: 'pcm_s16le_16',
        outputFormat: 'pcm_16000',
        voiceSettings: JSON.stringify({ stability: 0.3, similarity_boost: 0.9 }),
        enableLogging: true,
      }),
    );
    expect(out.byteLength / 2).toBeGreaterThan(malePcm.samples.length * 0.97);
    expect(out.byteLength / 2).toBeLessThan(malePcm.samples.length * 1.03);
    const samples = new Int16Array(out.buffer.slice(out.byteOffset, out.byteOffset + (out.byteLength & ~1)));
    expect(medianOf({ sampleRate: 16_000, channels: 1, samples })).toBeGreaterThan(medianOf(malePcm) * 1.2);
    const [row] = await historyRowsOf(db(), account.workspaceId);
    expect(row?.settings).toMatchObject({ stability: 0.3, similarity_boost: 0.9 });
    expect(await characterCountOf(db(), account.workspaceId)).toBe(speechToSpeechCost(secondsOf(malePcm)));
  }, 60_000);
});

describe('the speech-to-speech model', () => {
  it('is listed with can_do_voice_conversion, and text to speech refuses it', async () => {
    const account = await newAccount();
    const models = await account.sdk.models.list();
    for (const id of ['parla_sts_v1', 'eleven_multilingual_sts_v2', 'eleven_english_sts_v2']) {
      expect(models.find((m) => m.modelId === id)).toMatchObject({
        canDoVoiceConversion: true,
        canDoTextToSpeech: false,
      });
    }
    expect(models.filter((m) => m.canDoVoiceConversion).every((m) => !m.canDoTextToSpeech)).toBe(true);
    const refused = await fetch(`${baseUrl}/v1/text-to-speech/${FEMALE}`, {
      method: 'POST',
      headers: { 'xi-api-key': account.key, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Hello there.', model_id: 'eleven_multilingual_sts_v2' }),
    });
    expect(refused.status).toBe(422);
    expect(
      ((await refused.json()) as { detail: { errors: { loc: string[] }[] } }).detail.errors[0]?.loc,
    ).toEqual(['body', 'model_id']);
    expect(await characterCountOf(db(), account.workspaceId)).toBe(0);
  });
});

describe('speech to speech refusals: nothing charged, nothing kept', () => {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  const silence = Buffer.alloc(16_000 * 2 * 3);
  const cases: [string, () => Promise<{ response: Response; body: Buffer }>, number, string][] = [];
  let account: SpeechAccount;
  /** The first 40% of an MP3 whose Xing frame says its whole length (issue 26 item 9). */
  let cutShort: Buffer;
  beforeAll(async () => {
    account = await newAccount();
    const whole = await makeMediaFile('male.mp3', ['-i', 'pipe:0', '-c:a', 'libmp3lame'], maleMp3);
    cutShort = whole.subarray(0, Math.floor(whole.length * 0.4));
  });
  const call = (
    voiceId: string,
    fields: Record<string, string>,
    file?: { bytes: Uint8Array; name: string },
  ) => postForm(account, voiceId, fields, file);
  cases.push(
    [
      'no audio field',
      () => call(FEMALE, { model_id: 'eleven_multilingual_sts_v2' }),
      422,
      'invalid_request',
    ],
    [
      'a PNG named .mp3',
      () => call(FEMALE, {}, { bytes: png, name: 'voice.mp3' }),
      415,
      'unsupported_media_type',
    ],
    [
      'an empty file',
      () => call(FEMALE, {}, { bytes: new Uint8Array(0), name: 'a.mp3' }),
      415,
      'unsupported_media_type',
    ],
    [
      'an MP3 cut short (its header says 2.5 times what decodes)',
      () => call(FEMALE, {}, { bytes: cutShort, name: 'a.mp3' }),
      400,
      'bad_request',
    ],
    [
      'silence (no voiced speech)',
      () => call(FEMALE, { file_format: 'pcm_s16le_16' }, { bytes: silence, name: 'a.pcm' }),
      422,
      'invalid_request',
    ],
    [
      'an unknown voice',
      () => call('nope0000000000000000', {}, { bytes: maleMp3, name: 'a.mp3' }),
      404,
      'voice_not_found',
    ],
    [
      'a text-to-speech model',
      () => call(FEMALE, { model_id: 'eleven_multilingual_v2' }, { bytes: maleMp3, name: 'a.mp3' }),
      422,
      'invalid_request',
    ],
    [
      'voice_settings that are not JSON',
      () => call(FEMALE, { voice_settings: '{stability: 0.5' }, { bytes: maleMp3, name: 'a.mp3' }),
      422,
      'invalid_request',
    ],
    [
      'voice_settings out of range',
      () => call(FEMALE, { voice_settings: '{"stability": 3}' }, { bytes: maleMp3, name: 'a.mp3' }),
      422,
      'invalid_request',
    ],
    [
      'an unknown file_format',
      () => call(FEMALE, { file_format: 'wav' }, { bytes: maleMp3, name: 'a.mp3' }),
      422,
      'invalid_request',
    ],
  );
  for (const [what, send, status, code] of cases) {
    it(`refuses ${what} with ${status} ${code}`, async () => {
      const { response, body } = await send();
      const detail = (
        JSON.parse(body.toString()) as {
          detail: { status: string; message: string; errors?: { loc: string[] }[] };
        }
      ).detail;
      expect(response.status, detail.message).toBe(status);
      expect(detail.status).toBe(code);
      expect(await characterCountOf(db(), account.workspaceId)).toBe(0);
      expect(await historyRowsOf(db(), account.workspaceId)).toHaveLength(0);
    }, 30_000);
  }

  it('reads a JSON-typed form field like a text one (a bad voice_settings is still refused)', async () => {
    // Written by hand: FormData cannot give a text field its own content type.
    const boundary = 'parla-json-field';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="a.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`,
      ),
      maleMp3,
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Disposition: form-data; name="voice_settings"\r\nContent-Type: application/json\r\n\r\n{"stability": 3}\r\n--${boundary}--\r\n`,
      ),
    ]);
    const response = await fetch(`${baseUrl}/v1/speech-to-speech/${FEMALE}`, {
      method: 'POST',
      headers: { 'xi-api-key': account.key, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(response.status).toBe(422);
    const answer = (await response.json()) as { detail: { errors: { loc: string[] }[] } };
    expect(answer.detail.errors[0]?.loc.slice(0, 2)).toEqual(['body', 'voice_settings']);
  }, 30_000);

  it('refuses a caller without the credits for the file before decoding it', async () => {
    const poor = await newAccount();
    // All but a few credits used: a recording of several seconds costs more than is left.
    await setCharacterCount(db(), poor.workspaceId, (await characterCountOf(db(), poor.workspaceId)) + 9990);
    const refused = await postForm(poor, FEMALE, {}, { bytes: maleMp3, name: 'a.mp3' });
    expect(refused.response.status).toBe(401);
    expect(JSON.parse(refused.body.toString()).detail.status).toBe('quota_exceeded');
    expect(await historyRowsOf(db(), poor.workspaceId)).toHaveLength(0);
  }, 30_000);

  it('names the field: voice_settings, audio, model_id', async () => {
    const bad = await call(FEMALE, { voice_settings: 'not json' }, { bytes: maleMp3, name: 'a.mp3' });
    expect(JSON.parse(bad.body.toString()).detail.errors[0].loc).toEqual(['body', 'voice_settings']);
    const missing = await call(FEMALE, {});
    expect(JSON.parse(missing.body.toString()).detail.errors[0].loc).toEqual(['body', 'audio']);
    const silent = await call(FEMALE, { file_format: 'pcm_s16le_16' }, { bytes: silence, name: 'a.pcm' });
    expect(JSON.parse(silent.body.toString()).detail.message).toMatch(/No speech found|No voiced speech/);
  }, 30_000);

  it('refuses a body that is not multipart, and a broken multipart body, with a clean 4xx', async () => {
    const json = await fetch(`${baseUrl}/v1/speech-to-speech/${FEMALE}`, {
      method: 'POST',
      headers: { 'xi-api-key': account.key, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    const broken = await fetch(`${baseUrl}/v1/speech-to-speech/${FEMALE}`, {
      method: 'POST',
      headers: { 'xi-api-key': account.key, 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\nContent-Disposition: form-data; name="audio"; filename="a.mp3"\r\n\r\nabc',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { detail: { status: string } }).detail.status).toBe('malformed_request');
    const twoFiles = new FormData();
    twoFiles.append('audio', new Blob([maleMp3]), 'a.mp3');
    twoFiles.append('audio2', new Blob([maleMp3]), 'b.mp3');
    const two = await fetch(`${baseUrl}/v1/speech-to-speech/${FEMALE}`, {
      method: 'POST',
      headers: { 'xi-api-key': account.key },
      body: twoFiles,
    });
    expect(two.status).toBe(400);
    expect(await characterCountOf(db(), account.workspaceId)).toBe(0);
  }, 30_000);

  it('refuses an upload over 50 MB with 413', async () => {
    const { response, body } = await call(
      FEMALE,
      {},
      { bytes: Buffer.alloc(50 * 1024 * 1024 + 1), name: 'big.wav' },
    );
    expect(response.status).toBe(413);
    expect(JSON.parse(body.toString()).detail.status).toBe('payload_too_large');
    expect(await characterCountOf(db(), account.workspaceId)).toBe(0);
  }, 30_000);

  it('needs a key, and the official client sees refusals as errors', async () => {
    const anonymous = await fetch(`${baseUrl}/v1/speech-to-speech/${FEMALE}`, {
      method: 'POST',
      body: new FormData(),
    });
    expect(anonymous.status).toBe(401);
    const error = await account.sdk.speechToSpeech
      .convert(FEMALE, { audio: new Blob([maleMp3]), modelId: 'eleven_flash_v2_5' })
      .then(readAll)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElevenLabsError);
    expect((error as ElevenLabsError).statusCode).toBe(422);
  }, 30_000);
});

describe('speech to speech without the neural models', { timeout: 120_000 }, () => {
  // A store on an empty folder, as on a machine whose model fetch could not reach the registries: this
  // needs no model, and passes with or without them.
  let empty: TestApp;
  let emptyUrl: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-sts-no-models-'));
  beforeAll(async () => {
    empty = await createTestApp({ models: new ModelStore(dir), env: { ENGINE_TIMEOUT_MS: '20000' } });
    emptyUrl = await empty.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await empty?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('converts to a voice re-based on Kokoro through her classic preview (it asked for Kokoro and failed)', async () => {
    // Nora (Kokoro's af_nova where Kokoro is there): no other test here converts to her, so her profile is
    // made here, from her preview, and not taken from the process's cache.
    const engines = empty.deps.engines;
    const asked: string[] = [];
    const synthesize = engines.synthesize.bind(engines);
    vi.spyOn(engines, 'synthesize').mockImplementation((request, ...rest) => {
      asked.push(request.engine);
      return synthesize(request, ...rest);
    });
    const { sdk } = await newSpeechAccount(empty.app, emptyUrl);
    const out = await readAll(
      await sdk.speechToSpeech.convert(premadeVoiceId('Nora'), {
        audio: new Blob([maleMp3], { type: 'audio/mpeg' }),
        modelId: 'eleven_multilingual_sts_v2',
      }),
    );
    expect(probeAudio(out)).toMatchObject({ codec: 'mp3', sampleRate: 44100 });
    // Her preview, the conversion's target, spoken once by her classic engine.
    expect(asked).toHaveLength(1);
    expect(asked[0]).not.toMatch(/kokoro|piper/);
  });
});
