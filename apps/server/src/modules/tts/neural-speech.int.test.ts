// @postgres-leg skip: Kokoro through every form of the official client; its history items and charges are text to speech's, which tts.int covers on PostgreSQL.
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { wordErrorRate } from '@parla/audio';
import { ErrorResponse } from '@parla/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { decodeToPcm } from '../../platform/media/decode-audio';
import { ModelStore } from '../../platform/models/model-store';
import type { EngineSynthesisRequest } from '../../providers/tts/tts-provider';
import { readAll } from '../../test/audio-probe';
import { recordEngineRequests } from '../../test/engine-requests';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { historyRowsOf, newSpeechAccount, premadeVoiceId } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Issue 27 "Done when": the official client's textToSpeech.convert, stream, convertWithTimestamps and
 * textToDialogue.convert, and the stream-input socket (the SDK has no socket client: a plain WebSocket
 * with its message types, as tts-socket.int.test.ts), speak Kokoro — seen in the model id of the history
 * item, in the engine each sentence went to, and in the transcript Moonshine hears. A Spanish reading
 * follows `language_code` into Kokoro's phonemizer; a language no loaded model speaks is the documented
 * 400. With Kokoro unavailable in the model store the server keeps speaking, classic (decision record 0021).
 */

const noKokoro = modelsUnavailable('kokoro-82m');
const noStt = modelsUnavailable('moonshine-tiny');

let t: TestApp;
let baseUrl: string;
/** Every engine request the app made since the test began. */
let requests: EngineSynthesisRequest[];

const SARAH = premadeVoiceId('Sarah');
const RYAN = premadeVoiceId('Ryan');
const TEXT = 'The meeting has been moved to Thursday afternoon. Please bring the report.';

beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2', ENGINE_TIMEOUT_MS: '30000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  requests = recordEngineRequests(t);
});
afterAll(() => t?.close());
beforeEach(() => {
  requests.length = 0;
});
/** The tests that need Kokoro skip, saying why, where the model store lacks it. */
const needsKokoro = () => beforeEach((context) => skipWithout(context, noKokoro));

const engineOf = () => [...new Set(requests.map((r) => r.engine))];

/** What the speech-to-text model hears in an mp3 (or says why it cannot listen here). */
async function heard(mp3: Uint8Array): Promise<string | undefined> {
  if (noStt) return undefined;
  const pcm = await decodeToPcm(mp3, { sampleRate: 16_000, maxSeconds: 120 });
  return t.deps.providers.stt.transcribe(pcm, { timeoutMs: 60_000 });
}

/** At most one word in eight misheard (Kokoro read back by Moonshine tiny: 0–7% on the round trip). */
async function expectHeard(mp3: Uint8Array, text: string): Promise<void> {
  const words = await heard(mp3);
  if (words === undefined) return;
  console.info(`heard: ${words}`);
  expect(wordErrorRate(text, words), words).toBeLessThanOrEqual(1 / 8);
}

describe('the official client speaks Kokoro', { timeout: 180_000 }, () => {
  needsKokoro();
  it('textToSpeech.convert with parla_neural_v1: Kokoro speech, kept under that model id', async () => {
    const { sdk, workspaceId } = await newSpeechAccount(t.app, baseUrl);
    const audio = await readAll(
      await sdk.textToSpeech.convert(SARAH, { text: TEXT, modelId: 'parla_neural_v1' }),
    );
    expect(engineOf()).toEqual(['kokoro']);
    expect(requests.every((r) => r.voice === 'af_heart')).toBe(true);
    const [item] = await historyRowsOf(t.deps.database.db, workspaceId);
    expect(item).toMatchObject({ modelId: 'parla_neural_v1', voiceName: 'Sarah', text: TEXT });
    await expectHeard(audio, TEXT);
  });

  it('textToSpeech.stream with the client’s default model: Kokoro from the first sentence', async () => {
    const { sdk, workspaceId } = await newSpeechAccount(t.app, baseUrl);
    // No model id: the server's default, eleven_multilingual_v2, an alias of parla_neural_v1.
    const audio = await readAll(await sdk.textToSpeech.stream(RYAN, { text: TEXT }));
    expect(engineOf()).toEqual(['kokoro']);
    // The stream's first sentence is cut after its fifth word and sent first (speech-pipeline's streamPlan).
    expect(requests.map((r) => [r.voice, r.text])).toEqual([
      ['am_michael', 'The meeting has been moved'],
      ['am_michael', 'to Thursday afternoon.'],
      ['am_michael', 'Please bring the report.'],
    ]);
    const [item] = await historyRowsOf(t.deps.database.db, workspaceId);
    expect(item?.modelId).toBe('eleven_multilingual_v2');
    await expectHeard(audio, TEXT);
  });

  it('textToSpeech.convertWithTimestamps: every character timed by the forced aligner, in order, inside the audio', async () => {
    const { sdk } = await newSpeechAccount(t.app, baseUrl);
    // Kokoro only estimates word times: each sentence's are the aligner's (decision 21).
    const align = vi.spyOn(t.deps.providers.stt, 'align');
    const result = await sdk.textToSpeech.convertWithTimestamps(SARAH, {
      text: TEXT,
      modelId: 'parla_neural_v1',
    });
    expect(engineOf()).toEqual(['kokoro']);
    const alignment = result.alignment;
    expect(alignment?.characters.join('')).toBe(TEXT);
    const starts = alignment?.characterStartTimesSeconds ?? [];
    for (let i = 1; i < starts.length; i++) expect(starts[i]).toBeGreaterThanOrEqual(starts[i - 1] as number);
    const audio = Buffer.from(result.audioBase64, 'base64');
    const pcm = await decodeToPcm(audio, { sampleRate: 16_000, maxSeconds: 120 });
    const seconds = pcm.samples.length / pcm.sampleRate;
    expect(starts.at(-1)).toBeLessThanOrEqual(seconds);
    // (The sentences are spoken, and aligned, in parallel.)
    expect(align.mock.calls.map(([request]) => request.text).sort()).toEqual([
      'Please bring the report.',
      'The meeting has been moved to Thursday afternoon.',
    ]);
    // A time for every character of each sentence (else the engine's estimates would have stayed).
    const aligned = await Promise.all(align.mock.results.map((r) => r.value as ReturnType<typeof align>));
    expect(aligned.map((a) => a.characters.length).sort()).toEqual([24, 49]);
    align.mockRestore();
    await expectHeard(audio, TEXT);
  });

  it('textToDialogue.convert: each line in its own Kokoro voice, one history item', async () => {
    const { sdk, workspaceId } = await newSpeechAccount(t.app, baseUrl);
    const lines = ['Are you coming to the meeting on Thursday?', 'Yes, and I will bring the report.'];
    const audio = await readAll(
      await sdk.textToDialogue.convert({
        inputs: [
          { text: lines[0] as string, voiceId: SARAH },
          { text: lines[1] as string, voiceId: RYAN },
        ],
      }),
    );
    expect(engineOf()).toEqual(['kokoro']);
    expect(new Set(requests.map((r) => r.voice))).toEqual(new Set(['af_heart', 'am_michael']));
    const items = await historyRowsOf(t.deps.database.db, workspaceId);
    expect(items).toHaveLength(1);
    await expectHeard(audio, lines.join(' '));
  });

  it('the stream-input socket speaks Kokoro, with alignments', async () => {
    const { key } = await newSpeechAccount(t.app, baseUrl);
    const ws = new WebSocket(
      `${baseUrl.replace('http', 'ws')}/v1/text-to-speech/${SARAH}/stream-input?model_id=parla_neural_v1&output_format=mp3_44100_128`,
      { headers: { 'xi-api-key': key } },
    );
    const messages: { audio?: string | null; isFinal?: boolean; alignment?: { chars: string[] } }[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
    const closed = once(ws, 'close');
    await once(ws, 'open');
    ws.send(JSON.stringify({ text: ' ' }));
    ws.send(JSON.stringify({ text: TEXT, try_trigger_generation: true }));
    ws.send(JSON.stringify({ text: '' }));
    await closed;
    expect(engineOf()).toEqual(['kokoro']);
    const audio = Buffer.concat(
      messages.filter((m) => m.audio).map((m) => Buffer.from(m.audio as string, 'base64')),
    );
    const spoken = messages.flatMap((m) => m.alignment?.chars ?? []).join('');
    expect(spoken.replace(/\s+/g, ' ').trim()).toBe(TEXT);
    await expectHeard(audio, TEXT);
  });
});

describe('languages on the neural model', { timeout: 120_000 }, () => {
  needsKokoro();
  it('language_code picks Kokoro’s phonemizer: an English voice reads Spanish with Spanish phonemes', async () => {
    const { sdk } = await newSpeechAccount(t.app, baseUrl);
    const spanish = 'Hola, ¿cómo estás? La voz es muy clara.';
    const asEnglish = await readAll(
      await sdk.textToSpeech.convert(SARAH, { text: spanish, modelId: 'parla_neural_v1' }),
    );
    expect(requests.map((r) => r.language)).toEqual([undefined, undefined]);
    requests.length = 0;
    const asSpanish = await readAll(
      await sdk.textToSpeech.convert(SARAH, {
        text: spanish,
        modelId: 'parla_neural_v1',
        languageCode: 'es',
      }),
    );
    // The same voice, read in Spanish: the phonemes differ (neural-phonemes.test.ts prints both).
    expect(requests.map((r) => [r.engine, r.voice, r.language])).toEqual([
      ['kokoro', 'af_heart', 'es'],
      ['kokoro', 'af_heart', 'es'],
    ]);
    expect(Buffer.compare(asEnglish, asSpanish)).not.toBe(0);
    // A Spanish voice reads Spanish in its own language, with no language_code.
    requests.length = 0;
    await readAll(
      await sdk.textToSpeech.convert(premadeVoiceId('Lucía'), { text: spanish, modelId: 'parla_neural_v1' }),
    );
    expect(requests.map((r) => [r.voice, r.language])).toEqual([
      ['ef_dora', undefined],
      ['ef_dora', undefined],
    ]);
  });

  it('a language the neural model does not speak: the documented 400 by its id, classic by the public id', async () => {
    const { key } = await newSpeechAccount(t.app, baseUrl);
    const post = (model_id: string, language_code: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/text-to-speech/${SARAH}`,
        headers: { 'xi-api-key': key, 'content-type': 'application/json' },
        payload: { text: 'Guten Morgen.', model_id, language_code },
      });
    const refused = await post('parla_neural_v1', 'de');
    expect(refused.statusCode).toBe(400);
    expect(ErrorResponse.parse(refused.json()).detail).toEqual({
      status: 'unsupported_language',
      message: "Model 'parla_neural_v1' does not support language_code 'de'.",
    });
    // No language any model speaks: 400 with the public id too.
    expect((await post('eleven_multilingual_v2', 'xx')).statusCode).toBe(400);
    expect(requests).toEqual([]);
    // The public id speaks German through the classic model.
    const german = await post('eleven_multilingual_v2', 'de');
    expect(german.statusCode).toBe(200);
    expect(requests.map((r) => [r.engine, r.voice])).toEqual([['espeak', 'de+f3']]);
  });
});

describe('Kokoro unavailable in the model store', { timeout: 120_000 }, () => {
  let empty: TestApp;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-no-models-'));
  beforeAll(async () => {
    // A store on an empty folder: no model is there (the children still find theirs, unused here).
    empty = await createTestApp({ models: new ModelStore(dir) });
  });
  afterAll(async () => {
    await empty?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  // This needs no model: it passes on a machine without them.

  it('hides the neural models, speaks the default id classic, and refuses parla_neural_v1 with the reason', async () => {
    const { key } = await newSpeechAccount(empty.app, 'http://127.0.0.1');
    const headers = { 'xi-api-key': key, 'content-type': 'application/json' };
    const models = (await empty.app.inject({ method: 'GET', url: '/v1/models', headers })).json() as {
      model_id: string;
    }[];
    const ids = models.map((m) => m.model_id);
    expect(ids).not.toContain('parla_neural_v1');
    expect(ids).not.toContain('parla_neural_fast_v1');
    expect(ids).toContain('eleven_multilingual_v2');
    const spoken = recordEngineRequests(empty);
    const post = (model_id: string) =>
      empty.app.inject({
        method: 'POST',
        url: `/v1/text-to-speech/${SARAH}`,
        headers,
        payload: { text: 'Still speaking.', model_id },
      });
    const fallback = await post('eleven_multilingual_v2');
    expect(fallback.statusCode).toBe(200);
    expect(spoken.map((r) => r.engine)).toEqual(['festival']);
    const refused = await post('parla_neural_v1');
    expect(refused.statusCode).toBe(503);
    expect(ErrorResponse.parse(refused.json()).detail.message).toMatch(
      /^Parla Neural v1 is unavailable on this server: .*not fetched/,
    );
  });
});
