import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../platform/errors';
import { signUpWithApiKey } from '../test/factories';
import { modelsUnavailable, skipWithout } from '../test/needs-models';
import { characterCountOf, historyRowsOf, premadeVoiceId, setCharacterCount } from '../test/speech-fixtures';
import { createTestApp, type TestApp } from '../test/test-app';
// What a composite capability (dubbing: speech to text + translation + text to speech) calls: the front
// doors only, as another module would.
import {
  alignText,
  openTranscriptionStream,
  sttDepsOf,
  type TranscriptionListener,
  transcribe,
  transcriptionStreamDepsOf,
} from './speech-to-text';
import { transcripts } from './speech-to-text/speech-to-text.tables';
import { synthesize, synthesizeStream, ttsDepsOf } from './tts';

/** The tests below hear speech with the real models: skipped, with the reason, where they are unavailable. */
const noModel = modelsUnavailable('moonshine-tiny', 'silero-vad');

/*
 * The use cases agents, dubbing and studio call through the front doors (issue 26 item 1): each a whole
 * metered piece of work — the plan's checks, credits charged for what was done (refunded on failure), the
 * result kept or not as asked.
 */

let t: TestApp;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-front-doors-'));
const db = () => t.deps.database.db;
const TEXT = 'The quick brown fox jumps over the lazy dog.';
const voice = premadeVoiceId('Sarah');

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function caller() {
  const account = await signUpWithApiKey(t.app);
  return { userId: account.userId, workspaceId: account.workspaceId, requestId: 'front-door-test' };
}

describe('text to speech: synthesize and synthesizeStream', () => {
  it('speaks a text with a voice into a file, charges its characters and keeps it under the source asked', async () => {
    const who = await caller();
    const result = await synthesize(ttsDepsOf(t.deps), who, {
      text: TEXT,
      voiceId: voice,
      outputFormat: 'wav_16000',
      voiceSettings: { stability: 0.7 },
      source: 'STS',
    });
    expect(result.audio.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(result.audio.length).toBeGreaterThan(16_000);
    expect(result.characterCost).toBe(TEXT.length);
    expect(result.alignment.characters.join('')).toBe(TEXT);
    expect(await characterCountOf(db(), who.workspaceId)).toBe(TEXT.length);
    const [item] = await historyRowsOf(db(), who.workspaceId);
    expect(item?.id).toBe(result.historyItemId);
    expect(item?.source).toBe('STS');
    expect(item?.text).toBe(TEXT);
  });

  it('keeps nothing with keep: false, and still charges what it spoke', async () => {
    const who = await caller();
    const result = await synthesize(ttsDepsOf(t.deps), who, {
      text: 'Nothing kept.',
      voiceId: voice,
      keep: false,
    });
    expect(result.historyItemId).toBeUndefined();
    expect(result.contentType).toBe('audio/mpeg');
    expect(await historyRowsOf(db(), who.workspaceId)).toEqual([]);
    expect(await characterCountOf(db(), who.workspaceId)).toBe('Nothing kept.'.length);
  });

  it("refuses what the API refuses — an unknown voice, a plan's spent credits — and charges nothing", async () => {
    const who = await caller();
    await expect(synthesize(ttsDepsOf(t.deps), who, { text: TEXT, voiceId: 'nope' })).rejects.toMatchObject({
      code: 'voice_not_found',
    });
    await setCharacterCount(db(), who.workspaceId, 9_990);
    const refused = await synthesize(ttsDepsOf(t.deps), who, { text: TEXT, voiceId: voice }).catch(
      (error: AppError) => error,
    );
    expect((refused as AppError).code).toBe('quota_exceeded');
    expect(await characterCountOf(db(), who.workspaceId)).toBe(9_990);
    expect(await historyRowsOf(db(), who.workspaceId)).toEqual([]);
  });

  it('streams the encoded audio as it is spoken, then keeps and charges it', async () => {
    const who = await caller();
    const text = 'One sentence first. Then another one.';
    const streamed = await synthesizeStream(ttsDepsOf(t.deps), who, {
      text,
      voiceId: voice,
      outputFormat: 'pcm_16000',
    });
    const chunks: Buffer[] = [];
    for await (const chunk of streamed.stream) chunks.push(chunk as Buffer);
    const pcm = Buffer.concat(chunks);
    // Two sentences of raw 16-bit samples at 16 kHz: over a second of sound.
    expect(pcm.length / 2 / 16_000).toBeGreaterThan(1);
    expect(streamed.characterCost).toBe(text.length);
    await expect.poll(async () => (await historyRowsOf(db(), who.workspaceId)).length).toBe(1);
    expect(await characterCountOf(db(), who.workspaceId)).toBe(text.length);
  });
});

describe('speech to text: transcribe and alignText', () => {
  let recording: string;
  let seconds: number;
  beforeAll(async () => {
    const who = await caller();
    const spoken = await synthesize(ttsDepsOf(t.deps), who, {
      text: TEXT,
      voiceId: voice,
      outputFormat: 'wav_16000',
      keep: false,
    });
    recording = path.join(tmp, 'fox.wav');
    fs.writeFileSync(recording, spoken.audio);
    seconds = (spoken.audio.length - 44) / 2 / 16_000;
  });

  it('transcribes a file with word times, charges its started seconds and keeps nothing unless asked', async (context) => {
    skipWithout(context, noModel);
    const who = await caller();
    const heard = await transcribe(sttDepsOf(t.deps), who, { file: recording, diarize: true });
    if (!('words' in heard)) throw new Error('one channel: one transcript');
    const words = heard.words.filter((w) => w.type === 'word');
    expect(words.map((w) => w.text.toLowerCase().replace(/[^a-z]/g, ''))).toContain('fox');
    expect(words.every((w) => (w.end ?? 0) >= (w.start ?? 0))).toBe(true);
    expect(words[0]?.speaker_id).toBe('speaker_0');
    expect(await characterCountOf(db(), who.workspaceId)).toBe(Math.ceil(seconds));
    expect(await db().select().from(transcripts).where(eq(transcripts.workspaceId, who.workspaceId))).toEqual(
      [],
    );
    const kept = await transcribe(sttDepsOf(t.deps), who, { file: recording, keep: true });
    expect(kept.transcription_id).toBeTruthy();
    expect(
      await db().select().from(transcripts).where(eq(transcripts.workspaceId, who.workspaceId)),
    ).toHaveLength(1);
  });

  it('refuses a file that is not there, or a language the model does not know, before charging', async () => {
    const who = await caller();
    await expect(
      transcribe(sttDepsOf(t.deps), who, { file: path.join(tmp, 'missing.wav') }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(
      transcribe(sttDepsOf(t.deps), who, { file: recording, languageCode: 'fr' }),
    ).rejects.toMatchObject({ code: 'unsupported_language' });
    expect(await characterCountOf(db(), who.workspaceId)).toBe(0);
  });

  it('transcribes a stream: audio pushed as it comes, each commit given, charged and kept when asked', async (context) => {
    skipWithout(context, noModel);
    const who = await caller();
    const pcm = fs.readFileSync(recording).subarray(44);
    const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2);
    const commits: string[] = [];
    const withWords: string[][] = [];
    const failures: unknown[] = [];
    const listener: TranscriptionListener = {
      isOpen: () => true,
      partial: () => undefined,
      committed: (text) => commits.push(text),
      committedWithWords: (_text, words) => withWords.push(words.map((w) => w.text)),
      failed: (error) => failures.push(error),
    };
    const stream = await openTranscriptionStream(
      transcriptionStreamDepsOf(t.deps),
      who,
      {
        inputRate: 16_000,
        commitStrategy: 'manual',
        vadSilenceThresholdSecs: 1.5,
        vadThreshold: 0.4,
        minSpeechMs: 100,
        minSilenceMs: 100,
        wordTimes: true,
        keep: true,
      },
      listener,
    );
    // In pieces of a tenth of a second, as a microphone sends them.
    for (let at = 0; at < samples.length; at += 1600) await stream.push(samples.subarray(at, at + 1600));
    await stream.commit();
    await expect.poll(() => withWords.length, { timeout: 20_000 }).toBe(1);
    await stream.close();
    expect(failures).toEqual([]);
    expect(commits).toHaveLength(1);
    expect(commits[0]?.toLowerCase()).toContain('fox');
    expect(withWords[0]?.map((w) => w.toLowerCase().replace(/[^a-z]/g, ''))).toContain('dog');
    expect(await characterCountOf(db(), who.workspaceId)).toBe(Math.ceil(seconds));
    const [kept] = await db().select().from(transcripts).where(eq(transcripts.workspaceId, who.workspaceId));
    expect(kept).toMatchObject({ source: 'realtime', status: 'completed' });
  });

  it('refuses a stream it cannot hear before anything is spent', async () => {
    const who = await caller();
    const input = {
      inputRate: 0,
      commitStrategy: 'manual' as const,
      vadSilenceThresholdSecs: 1.5,
      vadThreshold: 0.4,
      minSpeechMs: 100,
      minSilenceMs: 100,
      wordTimes: false,
      keep: false,
    };
    const listener: TranscriptionListener = {
      isOpen: () => true,
      partial: () => undefined,
      committed: () => undefined,
      committedWithWords: () => undefined,
      failed: () => undefined,
    };
    const deps = transcriptionStreamDepsOf(t.deps);
    await expect(openTranscriptionStream(deps, who, input, listener)).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(
      openTranscriptionStream(deps, who, { ...input, inputRate: 16_000, languageCode: 'fr' }, listener),
    ).rejects.toMatchObject({ code: 'unsupported_language' });
    expect(await characterCountOf(db(), who.workspaceId)).toBe(0);
  });

  it('aligns a known text to the recording, word by word, and charges as transcribing does', async (context) => {
    skipWithout(context, noModel);
    const who = await caller();
    const aligned = await alignText(sttDepsOf(t.deps), who, { file: recording, text: TEXT });
    expect(aligned.words.map((w) => w.text)).toEqual(TEXT.split(' '));
    const fox = aligned.words.find((w) => w.text === 'fox');
    const dog = aligned.words.find((w) => w.text === 'dog.');
    expect(fox && dog && fox.end <= dog.start).toBe(true);
    expect(dog?.end ?? 0).toBeLessThanOrEqual(seconds + 0.05);
    expect(await characterCountOf(db(), who.workspaceId)).toBe(Math.ceil(seconds));
  });
});
