// @postgres-leg skip: three engines’ speech joined; tts.int covers the same metering and history rows on PostgreSQL.
import { ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { ErrorResponse, HistoryItemResponse, PREMADE_VOICES, SessionResponse } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { decodeStrictly, probeAudio, readAll } from '../../test/audio-probe';
import {
  characterCountOf,
  historyRowsOf,
  newSpeechAccount,
  premadeVoiceId,
  type SpeechAccount,
  setCharacterCount,
} from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { historyItems } from '../history/history.tables';

let t: TestApp;
let baseUrl: string;

type Account = SpeechAccount;
const newAccount = () => newSpeechAccount(t.app, baseUrl);

const voice = premadeVoiceId;
const db = () => t.deps.database.db;
const characterCount = (workspaceId: string) => characterCountOf(db(), workspaceId);
const historyOf = (workspaceId: string) => historyRowsOf(db(), workspaceId);

beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2', ENGINE_TIMEOUT_MS: '20000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/** Three turns in three voices, one Spanish (all Kokoro on the default model, decision 21). */
const VOICE_NAMES = ['Sarah', 'Kevin', 'Lucía'];
/** The lines as a history item keeps them: with each voice's name. */
const keptLines = (count = 3) =>
  LINES.slice(0, count).map((line, i) => ({ ...line, voice_name: VOICE_NAMES[i] }));
const LINES = [
  { text: 'Good morning. Did you bring the report?', voice_id: voice('Sarah') },
  { text: '[laughs] Of course, it is right here.', voice_id: voice('Kevin') },
  { text: 'Muy bien, gracias.', voice_id: voice('Lucía') },
];
const CHARACTERS = LINES.reduce((sum, line) => sum + line.text.length, 0);
const JOINED = LINES.map((line) => line.text).join('\n');
const sdkInputs = LINES.map((line) => ({ text: line.text, voiceId: line.voice_id }));

describe('text to dialogue with the official client', () => {
  it('convert: one mp3 of every line, one history item with the lines, one charge for the sum', async () => {
    const { sdk, workspaceId } = await newAccount();
    const audio = await readAll(await sdk.textToDialogue.convert({ inputs: sdkInputs }));
    const probed = probeAudio(audio);
    expect(probed).toMatchObject({ codec: 'mp3', sampleRate: 44100, channels: 1 });
    // Three short turns and two pauses: a few seconds.
    expect(probed.seconds).toBeGreaterThan(3);
    expect(probed.seconds).toBeLessThan(15);
    expect(await characterCount(workspaceId)).toBe(CHARACTERS);
    const items = await historyOf(workspaceId);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      source: 'TTS',
      text: JOINED,
      voiceId: voice('Sarah'),
      voiceName: 'Sarah',
      modelId: 'eleven_v3',
      dialogue: keptLines(),
      characterCountChangeFrom: 0,
      characterCountChangeTo: CHARACTERS,
    });
    expect((await t.deps.storage.get(items[0]?.audioKey ?? ''))?.equals(audio)).toBe(true);
    // The official client reads the item and the list with the lines (DialogueInputResponseModel).
    const id = items[0]?.id ?? '';
    const item = await sdk.history.get(id);
    expect(item.dialogue?.map((line) => line.voiceName)).toEqual(VOICE_NAMES);
    const listed = await sdk.history.list();
    expect(listed.history[0]?.dialogue?.map((line) => line.text)).toEqual(LINES.map((line) => line.text));
  });

  it('convertWithTimestamps: voice segments cover every line in order, over the joined text', async () => {
    const { sdk } = await newAccount();
    const result = await sdk.textToDialogue.convertWithTimestamps({ inputs: sdkInputs });
    const seconds = probeAudio(Buffer.from(result.audioBase64, 'base64')).seconds;
    const characters = result.alignment?.characters ?? [];
    expect(characters.join('')).toBe(JOINED);
    expect(result.normalizedAlignment?.characters.length).toBeGreaterThan(0);
    expect(result.voiceSegments.map((s) => [s.dialogueInputIndex, s.voiceId])).toEqual(
      LINES.map((line, i) => [i, line.voice_id]),
    );
    let previousEnd = 0;
    for (const [i, segment] of result.voiceSegments.entries()) {
      expect(characters.slice(segment.characterStartIndex, segment.characterEndIndex).join('')).toBe(
        LINES[i]?.text,
      );
      // Each line takes real time, after the one before it and its pause.
      expect(segment.startTimeSeconds).toBeGreaterThanOrEqual(i === 0 ? 0 : previousEnd + 0.2);
      expect(segment.endTimeSeconds - segment.startTimeSeconds).toBeGreaterThan(0.5);
      // The line's characters are spoken inside its segment (each line is resampled to one rate).
      const ends = result.alignment?.characterEndTimesSeconds.slice(
        segment.characterStartIndex,
        segment.characterEndIndex,
      );
      expect(Math.min(...(ends ?? []))).toBeGreaterThanOrEqual(segment.startTimeSeconds);
      expect(Math.max(...(ends ?? []))).toBeLessThanOrEqual(segment.endTimeSeconds + 0.001);
      previousEnd = segment.endTimeSeconds;
    }
    expect(previousEnd).toBeLessThanOrEqual(seconds + 0.1);
    const ends = result.alignment?.characterEndTimesSeconds ?? [];
    expect(ends.every((v, i) => i === 0 || v >= (ends[i - 1] ?? 0))).toBe(true);
  });

  it('stream: playable audio sent line by line, kept once with its lines and charged once', async () => {
    const { sdk, workspaceId } = await newAccount();
    const stream = await sdk.textToDialogue.stream({ inputs: sdkInputs, modelId: 'eleven_multilingual_v2' });
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    expect(chunks.length).toBeGreaterThan(1);
    const probed = probeAudio(Buffer.concat(chunks));
    expect(probed.codec).toBe('mp3');
    expect(probed.seconds).toBeGreaterThan(3);
    await expect.poll(async () => (await historyOf(workspaceId)).length).toBe(1);
    const [item] = await historyOf(workspaceId);
    expect(item?.dialogue).toEqual(keptLines());
    expect(item?.modelId).toBe('eleven_multilingual_v2');
    expect(await characterCount(workspaceId)).toBe(CHARACTERS);
  });

  it('streamWithTimestamps: a line per dialogue line with its characters and segment, the audio one mp3 stream', async () => {
    const { sdk } = await newAccount();
    const chunks = [];
    for await (const chunk of await sdk.textToDialogue.streamWithTimestamps({ inputs: sdkInputs }))
      chunks.push(chunk);
    // One line per dialogue line, and a last one with what the encoder still held.
    const timed = chunks.filter((c) => c.alignment);
    expect(timed).toHaveLength(LINES.length);
    expect(chunks.length).toBeLessThanOrEqual(LINES.length + 1);
    expect(timed.map((c) => c.alignment?.characters.join('') ?? '').join('')).toBe(JOINED);
    expect(timed.map((c) => c.voiceSegments.map((s) => s.dialogueInputIndex))).toEqual([[0], [1], [2]]);
    // Consecutive pieces of one mp3 stream (issue 16): decoded together in strict mode, as long as /stream.
    const joined = Buffer.concat(chunks.map((c) => Buffer.from(c.audioBase64, 'base64')));
    const seconds = decodeStrictly(joined);
    const streamed = await readAll(await sdk.textToDialogue.stream({ inputs: sdkInputs }));
    expect(Math.abs(seconds - decodeStrictly(streamed))).toBeLessThan(0.1);
  });

  it('answers an ElevenLabsError for an unknown voice through the client', async () => {
    const { sdk } = await newAccount();
    const error = await sdk.textToDialogue
      .convert({ inputs: [{ text: 'Hi', voiceId: 'NoSuchVoice000000000' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElevenLabsError);
    expect((error as ElevenLabsError).statusCode).toBe(404);
  });
});

describe('text to dialogue over HTTP', () => {
  const post = (acct: Account, path: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'xi-api-key': acct.key },
      payload: payload as object,
    });
  const detailOf = (res: { json(): unknown }) => ErrorResponse.parse(res.json()).detail;

  it('sends the generation headers, and another workspace cannot see the item', async () => {
    const owner = await newAccount();
    const res = await post(owner, '/v1/text-to-dialogue?output_format=wav_16000', {
      inputs: LINES.slice(0, 2),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(probeAudio(res.rawPayload)).toMatchObject({ codec: 'pcm_s16le', sampleRate: 16000 });
    const characters = (LINES[0]?.text.length ?? 0) + (LINES[1]?.text.length ?? 0);
    expect(res.headers['x-character-count']).toBe(String(characters));
    expect(res.headers['request-id']).toBeTruthy();
    const id = String(res.headers['history-item-id']);

    const mine = await t.app.inject({
      method: 'GET',
      url: `/v1/history/${id}`,
      headers: { 'xi-api-key': owner.key },
    });
    expect(mine.statusCode).toBe(200);
    expect(HistoryItemResponse.parse(mine.json()).dialogue).toEqual(keptLines(2));

    const stranger = await newAccount();
    for (const url of [`/v1/history/${id}`, `/v1/history/${id}/audio`]) {
      const theirs = await t.app.inject({ method: 'GET', url, headers: { 'xi-api-key': stranger.key } });
      expect(theirs.statusCode).toBe(404);
    }
  });

  it('keeps no history item with enable_logging=false, but charges', async () => {
    const acct = await newAccount();
    const res = await post(acct, '/v1/text-to-dialogue?enable_logging=false', { inputs: LINES.slice(0, 1) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['history-item-id']).toBeUndefined();
    expect(await historyOf(acct.workspaceId)).toEqual([]);
    expect(await characterCount(acct.workspaceId)).toBe(LINES[0]?.text.length);
  });

  it('charges the model’s cost factor once for the sum (Flash: half, rounded up)', async () => {
    const acct = await newAccount();
    const inputs = [
      { text: 'One.', voice_id: voice('Kevin') },
      { text: 'Two.', voice_id: voice('Sarah') },
      { text: 'Three.', voice_id: voice('Kevin') },
    ];
    const res = await post(acct, '/v1/text-to-dialogue', { inputs, model_id: 'eleven_flash_v2_5' });
    expect(res.statusCode).toBe(200);
    // 14 characters × 0.5 = 7 (three separate charges would have been 2 + 2 + 3).
    expect(res.headers['x-character-count']).toBe('7');
    expect(await characterCount(acct.workspaceId)).toBe(7);
  });

  it.each([
    ['no inputs', { inputs: [] }, 422, 'invalid_request'],
    ['51 inputs', { inputs: Array.from({ length: 51 }, () => LINES[0]) }, 422, 'invalid_request'],
    ['inputs that are not a list', { inputs: 'Hello' }, 422, 'invalid_request'],
    [
      'a text that is not a string',
      { inputs: [{ text: 3, voice_id: voice('Sarah') }] },
      422,
      'invalid_request',
    ],
    [
      'an empty line',
      { inputs: [LINES[0], { text: '  ', voice_id: voice('Kevin') }] },
      422,
      'invalid_request',
    ],
    [
      'eleven different voices',
      { inputs: PREMADE_VOICES.slice(0, 11).map((v) => ({ text: 'Hi.', voice_id: v.voice_id })) },
      422,
      'invalid_request',
    ],
    [
      'an unknown voice in the last line',
      { inputs: [...LINES, { text: 'Hi', voice_id: 'Nope' }] },
      404,
      'voice_not_found',
    ],
    ['an unknown model', { inputs: LINES, model_id: 'gpt-voice' }, 422, 'invalid_request'],
    [
      'a voice the model does not speak',
      { inputs: LINES, model_id: 'eleven_flash_v2' },
      422,
      'invalid_request',
    ],
    [
      'lines longer than the model takes in all',
      {
        inputs: [
          LINES[0],
          ...Array.from({ length: 4 }, () => ({ text: 'a'.repeat(800), voice_id: voice('Kevin') })),
        ],
      },
      422,
      'invalid_request',
    ],
    [
      'a line of audio tags only (v3)',
      { inputs: [LINES[0], { text: '[laughs]', voice_id: voice('Kevin') }] },
      422,
      'invalid_request',
    ],
  ])('refuses %s before anything is spent', async (_, payload, status, code) => {
    const acct = await newAccount();
    for (const form of ['', '/stream', '/with-timestamps', '/stream/with-timestamps']) {
      const res = await post(acct, `/v1/text-to-dialogue${form}`, payload);
      expect([res.statusCode, detailOf(res).status]).toEqual([status, code]);
    }
    expect(await characterCount(acct.workspaceId)).toBe(0);
    expect(await historyOf(acct.workspaceId)).toEqual([]);
  });

  it('names the line at fault', async () => {
    const acct = await newAccount();
    const empty = await post(acct, '/v1/text-to-dialogue', {
      inputs: [LINES[0], { text: ' ', voice_id: voice('Kevin') }],
    });
    expect(detailOf(empty).errors?.[0]?.loc).toEqual(['body', 'inputs', 1, 'text']);
    const tagsOnly = await post(acct, '/v1/text-to-dialogue', {
      inputs: [LINES[0], LINES[1], { text: '[sighs]', voice_id: voice('Kevin') }],
    });
    expect(detailOf(tagsOnly).errors?.[0]?.loc).toEqual(['body', 'inputs', 2, 'text']);
  });

  it('refuses past the quota with quota_exceeded (401), for the sum of the lines', async () => {
    const acct = await newAccount();
    // Enough for any one line, not for all of them.
    await setCharacterCount(db(), acct.workspaceId, 10_000 - 50);
    const res = await post(acct, '/v1/text-to-dialogue/stream', { inputs: LINES });
    expect([res.statusCode, detailOf(res).status]).toEqual([401, 'quota_exceeded']);
    expect(detailOf(res).message).toContain(`while ${CHARACTERS} credits are required`);
    expect(await characterCount(acct.workspaceId)).toBe(10_000 - 50);
  });
});

describe('an engine that fails', () => {
  it('gives a clean 503, refunds the credits and keeps nothing', async () => {
    const broken = await createTestApp();
    try {
      const signUp = await broken.app.inject({
        method: 'POST',
        url: '/v1/auth/sign-up',
        payload: { email: `dialogue-${newId(8).toLowerCase()}@example.test`, password: 'speech-pass-1' },
      });
      const session = SessionResponse.parse(signUp.json());
      await broken.deps.engines.stop();
      for (const form of ['', '/stream']) {
        const res = await broken.app.inject({
          method: 'POST',
          url: `/v1/text-to-dialogue${form}`,
          headers: { authorization: `Bearer ${session.access_token}` },
          payload: { inputs: LINES },
        });
        expect(res.statusCode).toBe(503);
        expect(ErrorResponse.parse(res.json()).detail.message).toContain('Nothing was charged');
      }
      expect(await characterCountOf(broken.deps.database.db, session.workspace_id)).toBe(0);
      const kept = await broken.deps.database.db
        .select()
        .from(historyItems)
        .where(eq(historyItems.workspaceId, session.workspace_id));
      expect(kept).toEqual([]);
    } finally {
      await broken.close();
    }
  });
});
