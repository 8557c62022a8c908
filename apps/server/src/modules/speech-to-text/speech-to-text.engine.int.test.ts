// @postgres-leg skip: recognition accuracy on the engines; speech-to-text.int covers the transcripts’ rows and jobs on PostgreSQL.
import { encodeWav, wordErrorRate } from '@parla/audio';
import { speechToTextCost } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { characterCountOf, newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { fliteSpeech, makeMediaFile } from '../../test/test-signals';

/** The tests below hear speech with the real models: skipped, with the reason, where they are unavailable. */
const noModel = modelsUnavailable('moonshine-tiny', 'silero-vad');

/*
 * Speech to text end to end with the real recogniser (the built-in English model in the engine children):
 * the official client transcribes a recording our own text to speech made, and the bad inputs of issue 19's
 * "Done when" that only a real recogniser can answer (silence, music) give an empty or near-empty transcript.
 */

const TEXT =
  'The weather is nice today and the children are playing in the park. ' +
  'Please bring the blue folder to the meeting on Tuesday morning.';

let t: TestApp;
let baseUrl: string;
let account: SpeechAccount;
let speech: Buffer;
const db = () => t.deps.database.db;

beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2', ENGINE_TIMEOUT_MS: '60000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  account = await newSpeechAccount(t.app, baseUrl);
  // Our own text to speech (flite's slt voice, as the engines speak it), straight from the engine.
  speech = encodeWav(await fliteSpeech('slt', TEXT));
}, 120_000);
afterAll(() => t.close());

describe('speech to text with the built-in model', () => {
  it('transcribes TTS speech through the official client, with words, spacings and formats', async (context) => {
    skipWithout(context, noModel);
    const spent = (await characterCountOf(db(), account.workspaceId)) ?? 0;
    const result = await account.sdk.speechToText.convert({
      modelId: 'scribe_v1',
      file: new Blob([speech]),
      diarize: true,
      timestampsGranularity: 'word',
      additionalFormats: [{ format: 'srt' }, { format: 'segmented_json' }],
    });
    if (!('words' in result)) throw new Error('not a chunk');
    expect(result.languageCode).toBe('eng');
    expect(wordErrorRate(TEXT, result.text)).toBeLessThan(0.2);
    const words = result.words.filter((w) => w.type === 'word');
    expect(words.length).toBeGreaterThan(15);
    // In order, inside the audio, with a spacing between each two words.
    for (const [i, word] of words.entries()) {
      expect(word.end ?? 0).toBeGreaterThanOrEqual(word.start ?? 0);
      if (i > 0) expect(word.start ?? 0).toBeGreaterThanOrEqual(words[i - 1]?.start ?? 0);
      // Speaker ids come from the provider's clustering (when it gives them): one form only.
      if (word.speakerId !== undefined) expect(word.speakerId).toMatch(/^speaker_\d+$/);
    }
    // Speakers are numbered in the order they first speak: the first one heard is speaker_0.
    expect(words.find((w) => w.speakerId !== undefined)?.speakerId ?? 'speaker_0').toBe('speaker_0');
    expect(result.words.filter((w) => w.type === 'spacing').length).toBe(words.length - 1);
    expect(words.at(-1)?.end ?? 0).toBeLessThanOrEqual((result.audioDurationSecs ?? 0) + 0.05);
    expect(result.additionalFormats?.[0]?.content).toMatch(/00:00:0\d,\d{3} --> /);
    const segmented = JSON.parse(result.additionalFormats?.[1]?.content ?? '{}') as { segments: unknown[] };
    expect(segmented.segments.length).toBeGreaterThan(0);
    expect((await characterCountOf(db(), account.workspaceId)) ?? 0).toBe(
      spent + speechToTextCost(result.audioDurationSecs ?? 0),
    );
    const id = result.transcriptionId ?? '';
    expect(await account.sdk.speechToText.transcripts.get(id)).toMatchObject({ text: result.text });
    await account.sdk.speechToText.transcripts.delete(id);
    await expect(account.sdk.speechToText.transcripts.get(id)).rejects.toMatchObject({ statusCode: 404 });
  }, 120_000);

  it('hears nothing in silence and next to nothing in music', async (context) => {
    skipWithout(context, noModel);
    const silence = await makeMediaFile('silence.mp3', [
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=16000:cl=mono',
      '-t',
      '5',
    ]);
    const quiet = await account.sdk.speechToText.convert({ modelId: 'scribe_v1', file: new Blob([silence]) });
    expect('text' in quiet && quiet.text).toBe('');
    // A sustained chord (A major) with no voice in it.
    const chord = await makeMediaFile('chord.ogg', [
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=220:duration=6',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=277.18:duration=6',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=329.63:duration=6',
      '-filter_complex',
      'amix=inputs=3',
      '-c:a',
      'libvorbis',
    ]);
    const music = await account.sdk.speechToText.convert({ modelId: 'scribe_v1', file: new Blob([chord]) });
    const heard = 'words' in music ? music.words.filter((w) => w.type === 'word').length : -1;
    expect(heard).toBeGreaterThanOrEqual(0);
    expect(heard).toBeLessThanOrEqual(3);
  }, 120_000);

  it('answers OpenAI-style clients', async (context) => {
    skipWithout(context, noModel);
    const form = new FormData();
    form.append('file', new Blob([speech]), 'speech.wav');
    form.append('model', 'whisper-1');
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    form.append('timestamp_granularities[]', 'segment');
    const response = await fetch(`${baseUrl}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.key}` },
      body: form,
    });
    const body = (await response.json()) as {
      text: string;
      words: unknown[];
      segments: unknown[];
      language: string;
    };
    expect(response.status).toBe(200);
    expect(wordErrorRate(TEXT, body.text)).toBeLessThan(0.2);
    expect(body.language).toBe('english');
    expect(body.words.length).toBeGreaterThan(15);
    expect(body.segments.length).toBeGreaterThan(0);
  }, 120_000);
});

describe('forced alignment with the official client', () => {
  it('places each word of the text in the recording, in order, and charges its seconds', async (context) => {
    skipWithout(context, noModel);
    const spent = (await characterCountOf(db(), account.workspaceId)) ?? 0;
    const result = await account.sdk.forcedAlignment.create({ file: new Blob([speech]), text: TEXT });
    const words = TEXT.split(' ');
    expect(result.words.map((w) => w.text)).toEqual(words);
    expect(result.characters.map((c) => c.text).join('')).toBe(TEXT);
    const seconds = speech.length / 2 / 16_000;
    for (const [i, word] of result.words.entries()) {
      expect(word.end).toBeGreaterThanOrEqual(word.start);
      expect(word.end).toBeLessThanOrEqual(seconds + 0.05);
      if (i > 0) expect(word.start).toBeGreaterThanOrEqual(result.words[i - 1]?.start ?? 0);
    }
    // "folder" is said in the second sentence: after "park".
    const at = (w: string) => result.words.find((x) => x.text.startsWith(w))?.start ?? 0;
    expect(at('folder')).toBeGreaterThan(at('park'));
    expect(result.loss).toBeGreaterThanOrEqual(0);
    expect((await characterCountOf(db(), account.workspaceId)) ?? 0).toBe(spent + speechToTextCost(seconds));
  });

  it('refuses a text with no words and a file that is not audio, charging nothing', async () => {
    const spent = (await characterCountOf(db(), account.workspaceId)) ?? 0;
    await expect(
      account.sdk.forcedAlignment.create({ file: new Blob([speech]), text: '   ' }),
    ).rejects.toMatchObject({ statusCode: 422 });
    await expect(
      account.sdk.forcedAlignment.create({ file: new Blob(['not audio at all']), text: 'Hello there.' }),
    ).rejects.toMatchObject({ statusCode: 415 });
    expect((await characterCountOf(db(), account.workspaceId)) ?? 0).toBe(spent);
  });

  it('never aligns a text to audio cut short or without speech, and charges nothing (issue 26 item 9)', async (context) => {
    skipWithout(context, noModel);
    const spent = (await characterCountOf(db(), account.workspaceId)) ?? 0;
    const align = async (bytes: Uint8Array, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([bytes]), name);
      form.append('text', TEXT);
      const response = await fetch(`${baseUrl}/v1/forced-alignment`, {
        method: 'POST',
        headers: { 'xi-api-key': account.key },
        body: form,
      });
      return { status: response.status, body: (await response.json()) as { detail?: { message: string } } };
    };
    // The first 1.5 KB of the recording as an MP3: its Xing frame still says the whole length.
    const mp3 = await makeMediaFile(
      'speech.mp3',
      ['-f', 'wav', '-i', 'pipe:0', '-c:a', 'libmp3lame'],
      speech,
    );
    const cut = await align(mp3.subarray(0, 1536), 'speech.mp3');
    expect(cut.status).toBe(400);
    expect(cut.body.detail?.message).toMatch(/^The file is cut short or damaged/);
    const silence = encodeWav({ sampleRate: 16_000, channels: 1, samples: new Int16Array(16_000 * 4) });
    const hum = await makeMediaFile('hum.wav', ['-f', 'lavfi', '-i', 'sine=f=120:d=4:sample_rate=16000']);
    for (const [name, bytes] of [
      ['silence.wav', silence],
      ['hum.wav', hum],
    ] as const) {
      const refused = await align(bytes, name);
      expect([name, refused.status, refused.body.detail?.message]).toEqual([
        name,
        422,
        'The audio holds no speech to align the text to (silence or other sounds only). Nothing was charged.',
      ]);
    }
    expect((await characterCountOf(db(), account.workspaceId)) ?? 0).toBe(spent);
  });
});
