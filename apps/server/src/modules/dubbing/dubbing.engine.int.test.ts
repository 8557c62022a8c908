// @postgres-leg skip: the whole pipeline on the real engines; dubbing.int covers the dubs' rows and refusals on PostgreSQL.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { encodeWav } from '@parla/audio';
import { dubbingCredits } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../platform/jobs/job-worker';
import { runMediaTool } from '../../platform/media/run-media-tool';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { characterCountOf, newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { fliteSpeech, joinWithPauses, makeMediaFile } from '../../test/test-signals';
import { startTestWorker } from '../../test/test-worker';
import { dubJob, renderJob } from './dubbing.jobs';

/*
 * Issue 29's "Done when", with the official client on the real engines: a video made with our own text to
 * speech (two voices) dubbed into Spanish, polled to `dubbed`, its Spanish audio, its transcripts, the
 * list, an edit of one segment re-dubbed and re-rendered, and the delete.
 */

const noModel = modelsUnavailable('moonshine-tiny', 'silero-vad', 'kokoro-82m', 'whisper-base');

const LINES: ['slt' | 'awb', string][] = [
  ['slt', 'The weather is nice today and the children are playing in the park.'],
  ['awb', 'Please bring the blue folder to the meeting on Tuesday.'],
  ['slt', 'Thank you very much, I will see you tomorrow.'],
];

let t: TestApp;
let baseUrl: string;
let worker: JobWorker;
let account: SpeechAccount;
let video: Buffer;
let videoSeconds: number;
const db = () => t.deps.database.db;

/** Seconds of a media file, by ffprobe. */
async function durationOf(bytes: Uint8Array, name: string): Promise<number> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parla-dub-test-'));
  try {
    const file = path.join(dir, name);
    await fs.writeFile(file, bytes);
    const { stdout } = await runMediaTool(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file],
      {
        timeoutMs: 20_000,
      },
    );
    return Number(stdout.toString().trim());
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2', ENGINE_TIMEOUT_MS: '60000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  worker = await startTestWorker(t, [dubJob, renderJob]);
  account = await newSpeechAccount(t.app, baseUrl);
  const speech = joinWithPauses(
    ...(await Promise.all(LINES.map(([voice, text]) => fliteSpeech(voice, text)))),
  );
  videoSeconds = speech.samples.length / speech.sampleRate;
  video = await makeMediaFile(
    'two-voices.mp4',
    [
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=160x120:rate=15:duration=${videoSeconds.toFixed(3)}`,
      '-i',
      'pipe:0',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-shortest',
    ],
    encodeWav(speech),
  );
}, 120_000);
afterAll(async () => {
  await worker.stop(20_000);
  await t.close();
});

async function dubbed(id: string) {
  for (let i = 0; i < 600; i++) {
    const dub = await account.sdk.dubbing.get(id);
    if (dub.status !== 'dubbing') return dub;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the dub did not finish in 120 s');
}

/** Lower-case words of a text, accents kept, punctuation dropped. */
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Bytes of a binary answer of the SDK (a stream of Uint8Array). */
async function bytesOf(stream: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of stream as AsyncIterable<Uint8Array>) parts.push(part);
  return Buffer.concat(parts);
}

describe('dubbing a video with the official client', () => {
  it('dubs a two-voice video into Spanish, edits a segment, re-renders and deletes', async (context) => {
    skipWithout(context, noModel);
    const spent = (await characterCountOf(db(), account.workspaceId)) ?? 0;
    const created = await account.sdk.dubbing.create({
      file: new Blob([video], { type: 'video/mp4' }),
      name: 'Two voices',
      sourceLang: 'en',
      targetLang: 'es',
      numSpeakers: 2,
    });
    expect(created.expectedDurationSec).toBeGreaterThan(0);
    const dub = await dubbed(created.dubbingId);
    expect(dub).toMatchObject({ status: 'dubbed', sourceLanguage: 'en', targetLanguages: ['es'] });
    expect((await characterCountOf(db(), account.workspaceId)) ?? 0).toBe(
      spent + dubbingCredits(dub.mediaMetadata?.duration ?? 0, 1, false),
    );

    // The same dub through the newer project calls.
    expect(await account.sdk.dubbing.project.get(created.dubbingId)).toMatchObject({
      projectId: created.dubbingId,
      status: 'ready',
      languageIds: ['es'],
    });
    const { languages } = await account.sdk.dubbing.project.language.list(created.dubbingId);
    expect(languages).toMatchObject([{ languageId: 'es', targetLanguage: 'es', status: 'completed' }]);

    const mp4 = await bytesOf(await account.sdk.dubbing.audio.get(created.dubbingId, 'es'));
    const seconds = await durationOf(mp4, 'dubbed.mp4');
    expect(Math.abs(seconds - videoSeconds) / videoSeconds).toBeLessThan(0.02);

    const srt = await account.sdk.dubbing.transcript.getTranscriptForDub(created.dubbingId, 'es', {
      formatType: 'srt',
    });
    expect(String(srt)).toMatch(/00:00:0\d,\d{3} --> /);
    expect(String(srt).toLowerCase()).toMatch(/parque|tiempo|carpeta|gracias/);

    // The Spanish audio says the segments' translations: heard back by the multilingual recogniser, most
    // of its words are the translations' words (Apertium's output; word overlap, accents kept).
    const resourceBefore = await account.sdk.dubbing.resource.get(created.dubbingId);
    const translated = new Set(
      Object.values(resourceBefore.speakerSegments).flatMap((s) => wordsOf(s.dubs.es?.text ?? '')),
    );
    const heard = await account.sdk.speechToText.convert({
      modelId: 'parla_stt_multilingual_v1',
      languageCode: 'es',
      file: new Blob([mp4], { type: 'video/mp4' }),
    });
    const heardWords = wordsOf('text' in heard ? heard.text : '');
    const overlap = heardWords.filter((w) => translated.has(w)).length / Math.max(1, heardWords.length);
    expect(heardWords.length).toBeGreaterThan(10);
    expect(overlap, `${heardWords.join(' ')} vs ${[...translated].join(' ')}`).toBeGreaterThan(0.6);

    const page = await account.sdk.dubbing.list();
    expect(page.dubs.map((d) => d.dubbingId)).toContain(created.dubbingId);

    const resource = await account.sdk.dubbing.resource.get(created.dubbingId);
    expect(Object.keys(resource.speakerTracks).length).toBeGreaterThanOrEqual(1);
    const [first] = Object.values(resource.speakerSegments).sort((a, b) => a.startTime - b.startTime);
    if (!first) throw new Error('no segment');
    expect(first.dubs.es?.text).toBeTruthy();
    // Heard again from the source: the same words come back for that segment.
    await account.sdk.dubbing.resource.transcribe(created.dubbingId, { segments: [first.id] });
    const heardAgain = (await account.sdk.dubbing.resource.get(created.dubbingId)).speakerSegments[first.id];
    expect(wordsOf(heardAgain?.text ?? '')).toEqual(wordsOf(first.text));
    const edited = await account.sdk.dubbing.resource.segment.update(created.dubbingId, first.id, 'es', {
      text: 'Hoy hace buen tiempo.',
    });
    expect(edited.version).toBeGreaterThan(resource.version);
    await account.sdk.dubbing.resource.dub(created.dubbingId, { segments: [first.id], languages: ['es'] });
    const after = await account.sdk.dubbing.resource.get(created.dubbingId);
    expect(after.speakerSegments[first.id]?.dubs.es).toMatchObject({
      text: 'Hoy hace buen tiempo.',
      audioStale: false,
    });
    const render = await account.sdk.dubbing.resource.render(created.dubbingId, 'es', { renderType: 'mp4' });
    let done = await account.sdk.dubbing.resource.get(created.dubbingId);
    for (let i = 0; i < 300 && done.renders[render.renderId]?.status === 'processing'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      done = await account.sdk.dubbing.resource.get(created.dubbingId);
    }
    expect(done.renders[render.renderId]?.status).toBe('complete');
    const url = done.renders[render.renderId]?.mediaRef?.url ?? '';
    // The reference names the server's PUBLIC_URL; the test server listens elsewhere.
    const file = await fetch(`${baseUrl}${new URL(url).pathname}`, {
      headers: { 'xi-api-key': account.key },
    });
    expect(file.status).toBe(200);
    expect(
      Math.abs((await durationOf(new Uint8Array(await file.arrayBuffer()), 'render.mp4')) - videoSeconds),
    ).toBeLessThan(videoSeconds * 0.02);

    await account.sdk.dubbing.delete(created.dubbingId);
    await expect(account.sdk.dubbing.get(created.dubbingId)).rejects.toMatchObject({ statusCode: 404 });
  }, 240_000);
});
