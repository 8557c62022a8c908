// @postgres-leg skip: recognition accuracy on the engines; speech-to-text.int covers the transcripts’ rows and jobs on PostgreSQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeWav, wordErrorRate } from '@parla/audio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithApiKey } from '../../test/factories';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { sttDepsOf, transcribe } from '.';

/** Whisper base, the voice activity model, and Kokoro to speak the Spanish sample. */
const noModel = modelsUnavailable('whisper-base', 'silero-vad', 'kokoro-82m');

/*
 * The multilingual model (parla_stt_multilingual_v1, issue 29) end to end: a Spanish recording our own
 * text to speech made (Kokoro's ef_dora) through the real API with the official client, the language
 * detected when none is given and honoured when one is, and the front door dubbing calls.
 */

const SPANISH = 'Buenos días, me llamo Carlos y vivo en Madrid. Hoy vamos a hablar de la comida española.';

let t: TestApp;
let baseUrl: string;
let account: SpeechAccount;
let speech: Buffer;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-stt-multilingual-'));

beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '1', ENGINE_TIMEOUT_MS: '60000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  account = await newSpeechAccount(t.app, baseUrl);
  if (!noModel) {
    const spoken = await t.deps.engines.synthesize({ engine: 'kokoro', voice: 'ef_dora', text: SPANISH });
    speech = encodeWav({ sampleRate: spoken.sampleRate, channels: 1, samples: spoken.samples });
  }
}, 120_000);
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Share of the spoken words heard (case and punctuation aside). */
function overlap(expected: string, heard: string): number {
  const words = (s: string) => s.toLowerCase().match(/\p{L}+/gu) ?? [];
  const got = new Set(words(heard));
  const want = words(expected);
  return want.filter((w) => got.has(w)).length / want.length;
}

describe('parla_stt_multilingual_v1', () => {
  it('transcribes Spanish through the official client and detects the language, with word times', async (context) => {
    skipWithout(context, noModel);
    const result = await account.sdk.speechToText.convert({
      modelId: 'parla_stt_multilingual_v1',
      file: new Blob([speech]),
      diarize: true,
      timestampsGranularity: 'word',
    });
    if (!('words' in result)) throw new Error('not a chunk');
    expect(result.languageCode).toBe('spa');
    expect(result.languageProbability).toBeGreaterThan(0.5);
    expect(overlap(SPANISH, result.text)).toBeGreaterThan(0.8);
    expect(wordErrorRate(SPANISH, result.text)).toBeLessThan(0.3);
    const words = result.words.filter((w) => w.type === 'word');
    expect(words.length).toBeGreaterThan(10);
    for (const [i, word] of words.entries()) {
      expect(word.end ?? 0).toBeGreaterThan(word.start ?? 0);
      // Ends from the next word's start, capped: no word stretches over a pause (the longest here ~1 s).
      expect((word.end ?? 0) - (word.start ?? 0)).toBeLessThan(1.5);
      if (i > 0) expect(word.start ?? 0).toBeGreaterThanOrEqual(words[i - 1]?.start ?? 0);
      expect(word.speakerId).toBe('speaker_0');
    }
    // The words spread over the speech, not bunched at its start: the last starts in its second half.
    const duration = result.audioDurationSecs ?? 0;
    expect(words.at(-1)?.start ?? 0).toBeGreaterThan(duration / 2);
    expect(words.at(-1)?.end ?? 0).toBeLessThanOrEqual(duration + 0.05);
  }, 120_000);

  it('honours a language given, and the English models refuse it', async (context) => {
    skipWithout(context, noModel);
    const result = await account.sdk.speechToText.convert({
      modelId: 'parla_stt_multilingual_v1',
      file: new Blob([speech]),
      languageCode: 'es',
      timestampsGranularity: 'none',
    });
    if (!('text' in result) || !('languageCode' in result)) throw new Error('not a chunk');
    expect(result.languageCode).toBe('spa');
    expect(result.languageProbability).toBe(1);
    expect(overlap(SPANISH, result.text)).toBeGreaterThan(0.8);
    await expect(
      account.sdk.speechToText.convert({
        modelId: 'parla_stt_v1',
        file: new Blob([speech]),
        languageCode: 'es',
      }),
    ).rejects.toMatchObject({
      statusCode: 400,
      body: {
        detail: {
          status: 'unsupported_language',
          message: expect.stringMatching(/parla_stt_multilingual_v1/),
        },
      },
    });
  }, 120_000);

  it('is what the front door transcribes with for dubbing, the detected language returned', async (context) => {
    skipWithout(context, noModel);
    const recording = path.join(tmp, 'spanish.wav');
    fs.writeFileSync(recording, speech);
    const who = await signUpWithApiKey(t.app);
    const heard = await transcribe(
      sttDepsOf(t.deps),
      { userId: who.userId, workspaceId: who.workspaceId, requestId: 'multilingual-test' },
      { file: recording, modelId: 'parla_stt_multilingual_v1' },
    );
    if (!('language_code' in heard)) throw new Error('not a chunk');
    expect(heard.language_code).toBe('spa');
    expect(overlap(SPANISH, heard.text)).toBeGreaterThan(0.8);
  }, 120_000);
});
