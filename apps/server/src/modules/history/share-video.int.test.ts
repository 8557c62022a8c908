// @postgres-leg skip: video rendering with ffmpeg; history.int and share-page.int cover its rows on PostgreSQL.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SHARE_VIDEO_THEMES, type ShareVideoTheme } from '@parla/contracts';
import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerJobs } from '../../modules';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { JobWorker } from '../../platform/jobs/job-worker';
import { jobs } from '../../platform/jobs/jobs.tables';
import { probeAudio } from '../../test/audio-probe';
import { signUpWithApiKey } from '../../test/factories';
import { premadeVoiceId } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { getHistoryItem } from './history.store';
import { historyItems } from './history.tables';
import { deleteShareVideos } from './share-video.files';
import { shareVideoRenderJob } from './share-video.jobs';
import { generateShareVideo } from './share-video.service';

let t: TestApp;
let worker: JobWorker;
beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2' } });
  // The test app runs no worker: this one takes the render jobs, woken by each enqueue as in main.ts.
  worker = new JobWorker({
    db: t.deps.database.db,
    definitions: workerJobs(t.deps, [shareVideoRenderJob]),
    concurrency: 2,
    leaseSeconds: 30,
    pollIntervalMs: 100,
    logger: pino({ level: 'silent' }),
    exclusiveDatabase: false,
  });
  t.deps.queue.onEnqueued = () => worker.wake();
  await worker.start();
});
afterAll(async () => {
  await worker.stop(20_000);
  await t.close();
});

const voice = premadeVoiceId;

/** An account with one text-to-speech item of `text` (eSpeak, the quickest engine). */
async function itemOf(text: string) {
  const account = await signUpWithApiKey(t.app);
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/text-to-speech/${voice('Sarah')}`,
    headers: { 'xi-api-key': account.apiKey },
    payload: { text, model_id: 'parla_multilingual_v1' },
  });
  expect(res.statusCode).toBe(200);
  return { ...account, id: res.headers['history-item-id'] as string, audio: res.rawPayload };
}

const call = (apiKey: string, method: 'GET' | 'POST' | 'DELETE', url: string) =>
  t.app.inject({ method, url, headers: { 'xi-api-key': apiKey } });
const videoPath = (id: string, theme: ShareVideoTheme, strip = true) =>
  `/v1/history/${id}/video?theme=${theme}&strip_v3_tags=${strip}`;
const previewPath = (id: string, theme: ShareVideoTheme, strip = true) =>
  `/v1/history/${id}/video/preview?theme=${theme}&strip_v3_tags=${strip}`;

const renderJobsOf = async (id: string) =>
  Number(
    (
      await t.deps.database.db
        .select({ n: sql<number>`count(*)` })
        .from(jobs)
        .where(and(eq(jobs.name, shareVideoRenderJob.name), sql`${jobs.payload}->>'historyItemId' = ${id}`))
    )[0]?.n,
  );

/** What ffprobe reads in a video: its streams' codecs and its duration. */
function probeVideo(bytes: Buffer): {
  streams: { codec_type: string; codec_name: string; pix_fmt?: string }[];
  seconds: number;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-video-probe-'));
  try {
    const file = path.join(dir, 'video.mp4');
    fs.writeFileSync(file, bytes);
    const out = JSON.parse(
      execFileSync('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_type,codec_name,pix_fmt,width,height:format=duration',
        '-of',
        'json',
        file,
      ]).toString(),
    ) as { streams: { codec_type: string; codec_name: string }[]; format: { duration: string } };
    return { streams: out.streams, seconds: Number(out.format.duration) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The colour of one pixel of an image, decoded by ffmpeg. */
function pixelAt(png: Buffer, x: number, y: number): [number, number, number] {
  const rgb = execFileSync(
    'ffmpeg',
    [
      '-v',
      'error',
      '-i',
      'pipe:0',
      '-vf',
      `crop=1:1:${x}:${y}`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { input: png },
  );
  return [rgb[0] ?? -1, rgb[1] ?? -1, rgb[2] ?? -1];
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const near = (actual: number[], expected: number[], tolerance: number) =>
  actual.every((v, i) => Math.abs(v - (expected[i] ?? 0)) <= tolerance);

describe('share videos (history/voices §2, §3, §5)', () => {
  it('renders each theme: an H.264 + AAC mp4 as long as the audio, and a PNG preview on the theme’s background', async () => {
    const { apiKey, id, audio } = await itemOf('Here is a share video of a short sentence.');
    const audioSeconds = probeAudio(audio).seconds;
    const backgrounds: Record<ShareVideoTheme, [number, number, number]> = {
      light: [0xff, 0xff, 0xff],
      dark: [0x18, 0x18, 0x1b],
      // The gradient's first stop (#6d28d9) at the top-left corner.
      colour: [0x6d, 0x28, 0xd9],
    };
    for (const theme of SHARE_VIDEO_THEMES) {
      const rendered = await call(apiKey, 'POST', videoPath(id, theme));
      expect(rendered.statusCode, rendered.body).toBe(200);
      const url = new URL(rendered.json().video_url);
      expect(url.origin).toBe(t.deps.config.publicUrl);
      expect(`${url.pathname}${url.search}`).toBe(videoPath(id, theme));

      const video = await call(apiKey, 'GET', `${url.pathname}${url.search}`);
      expect(video.statusCode).toBe(200);
      expect(video.headers['content-type']).toBe('video/mp4');
      const probed = probeVideo(video.rawPayload);
      expect(probed.streams).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ codec_type: 'video', codec_name: 'h264', pix_fmt: 'yuv420p' }),
          expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' }),
        ]),
      );
      expect(Math.abs(probed.seconds - audioSeconds), theme).toBeLessThan(0.5);

      const preview = await call(apiKey, 'GET', previewPath(id, theme));
      expect(preview.statusCode).toBe(200);
      expect(preview.headers['content-type']).toBe('image/png');
      expect(preview.rawPayload.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
      const corner = pixelAt(preview.rawPayload, 4, 4);
      expect(near(corner, backgrounds[theme], theme === 'colour' ? 6 : 1), `${theme}: ${corner}`).toBe(true);
    }
  });

  it('renders once: a second call and a double click reuse the render', async () => {
    const { apiKey, id } = await itemOf('Render me only once, please.');
    const [a, b] = await Promise.all([
      call(apiKey, 'POST', videoPath(id, 'dark')),
      call(apiKey, 'POST', videoPath(id, 'dark')),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json()).toEqual(b.json());
    expect(await renderJobsOf(id)).toBe(1);
    const started = Date.now();
    const again = await call(apiKey, 'POST', videoPath(id, 'dark'));
    expect(again.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await renderJobsOf(id)).toBe(1);
    // Another tag choice is another render.
    expect((await call(apiKey, 'POST', videoPath(id, 'dark', false))).statusCode).toBe(200);
    expect(await renderJobsOf(id)).toBe(2);
  });

  it('strip_v3_tags changes the text drawn when the text has tags, and nothing otherwise', async () => {
    const tagged = await itemOf('[laughs] That was a good one, friend.');
    const stripped = await call(tagged.apiKey, 'GET', previewPath(tagged.id, 'light', true));
    const kept = await call(tagged.apiKey, 'GET', previewPath(tagged.id, 'light', false));
    expect([stripped.statusCode, kept.statusCode]).toEqual([200, 200]);
    expect(stripped.rawPayload.equals(kept.rawPayload)).toBe(false);

    const plain = await itemOf('No tags in this one at all.');
    const a = await call(plain.apiKey, 'GET', previewPath(plain.id, 'light', true));
    const b = await call(plain.apiKey, 'GET', previewPath(plain.id, 'light', false));
    expect(a.rawPayload.equals(b.rawPayload)).toBe(true);
  });

  it('refuses a speech-to-speech item with the spec’s message', async () => {
    const { apiKey, id, workspaceId } = await itemOf('Speech to speech stand-in.');
    const row = await getHistoryItem(t.deps.database.db, workspaceId, id);
    if (!row) throw new Error('the item was not stored');
    const columns = row;
    const stsId = newId(20);
    await t.deps.database.db
      .insert(historyItems)
      .values({ ...columns, id: stsId, source: 'STS', shareLinkId: null, requestId: null });
    for (const [method, url] of [
      ['POST', videoPath(stsId, 'colour')],
      ['GET', previewPath(stsId, 'colour')],
      ['GET', videoPath(stsId, 'colour')],
    ] as const) {
      const res = await call(apiKey, method, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().detail).toEqual({
        status: 'bad_request',
        message: 'Video generation is only available for text-to-speech items',
      });
    }
  });

  it('answers 404 for another workspace’s item and an unknown one, and 401 without a caller', async () => {
    const { id } = await itemOf('Not yours to share.');
    const stranger = await signUpWithApiKey(t.app);
    for (const [method, url] of [
      ['POST', videoPath(id, 'colour')],
      ['GET', previewPath(id, 'colour')],
      ['GET', videoPath(id, 'colour')],
      ['POST', videoPath('NoSuchItem', 'colour')],
    ] as const) {
      const res = await call(stranger.apiKey, method, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().detail.status).toBe('resource_not_found');
    }
    expect((await t.app.inject({ method: 'POST', url: videoPath(id, 'colour') })).statusCode).toBe(401);
    const bad = await call(stranger.apiKey, 'POST', `/v1/history/${id}/video?theme=sepia`);
    expect(bad.statusCode).toBe(422);
  });

  it('is 404 before the render, and gone with deleteShareVideos', async () => {
    const { apiKey, id, workspaceId } = await itemOf('Here and then gone.');
    expect((await call(apiKey, 'GET', videoPath(id, 'light'))).statusCode).toBe(404);
    expect((await call(apiKey, 'POST', videoPath(id, 'light'))).statusCode).toBe(200);
    expect((await call(apiKey, 'GET', previewPath(id, 'light'))).statusCode).toBe(200);
    expect(await t.deps.storage.list(`share-videos/${workspaceId}/${id}/`)).toHaveLength(2);
    await deleteShareVideos(t.deps.storage, workspaceId, id);
    expect(await t.deps.storage.list(`share-videos/${workspaceId}/${id}/`)).toEqual([]);
    expect((await call(apiKey, 'GET', videoPath(id, 'light'))).statusCode).toBe(404);
  });

  it('deleting the item through the API removes its videos and previews', async () => {
    const { apiKey, id, workspaceId } = await itemOf('Delete me with my video.');
    expect((await call(apiKey, 'POST', videoPath(id, 'dark'))).statusCode).toBe(200);
    expect((await call(apiKey, 'GET', previewPath(id, 'dark'))).statusCode).toBe(200);
    expect(await t.deps.storage.list(`share-videos/${workspaceId}/${id}/`)).toHaveLength(2);
    expect((await call(apiKey, 'DELETE', `/v1/history/${id}`)).statusCode).toBe(200);
    expect(await t.deps.storage.list(`share-videos/${workspaceId}/${id}/`)).toEqual([]);
  });

  it('fails cleanly when the render fails, and renders again on the next call (Try again)', async () => {
    const { apiKey, id, workspaceId } = await itemOf('This audio will break for a moment.');
    const row = await getHistoryItem(t.deps.database.db, workspaceId, id);
    if (!row) throw new Error('the item was not stored');
    const audio = await t.deps.storage.get(row.audioKey);
    await t.deps.storage.put(row.audioKey, Buffer.from('not audio at all'));
    const failed = await call(apiKey, 'POST', videoPath(id, 'colour'));
    expect(failed.statusCode).toBe(500);
    expect(failed.json().detail).toEqual({
      status: 'internal_error',
      message: 'The video could not be rendered. Please try again.',
    });
    await t.deps.storage.put(row.audioKey, audio ?? Buffer.alloc(0));
    const retried = await call(apiKey, 'POST', videoPath(id, 'colour'));
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await renderJobsOf(id)).toBe(2);
  });

  it('answers 504 when the render outlasts the wait, and the render goes on for the next call', async () => {
    const { apiKey, id, workspaceId } = await itemOf('A render that takes longer than the caller waits.');
    const deps = {
      db: t.deps.database.db,
      storage: t.deps.storage,
      queue: t.deps.queue,
      renderJob: shareVideoRenderJob,
      enabled: true,
      publicUrl: t.deps.config.publicUrl,
      waitMs: 0,
    };
    const query = { theme: 'light' as const, strip_v3_tags: true };
    const error = await generateShareVideo(deps, workspaceId, id, query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(504);
    expect((await call(apiKey, 'POST', videoPath(id, 'light'))).statusCode).toBe(200);
    expect(await renderJobsOf(id)).toBe(1);
  });
});

describe('with TTS_VIDEO_GENERATION=false', () => {
  it('refuses the video calls as feature_disabled, and says so in the user document', async () => {
    const off = await createTestApp({ env: { TTS_VIDEO_GENERATION: 'false' } });
    try {
      const account = await signUpWithApiKey(off.app);
      for (const [method, url] of [
        ['POST', videoPath('AnyItem', 'colour')],
        ['GET', previewPath('AnyItem', 'colour')],
        ['GET', videoPath('AnyItem', 'colour')],
      ] as const) {
        const res = await off.app.inject({ method, url, headers: { 'xi-api-key': account.apiKey } });
        expect(res.statusCode, url).toBe(403);
        expect(res.json().detail.status).toBe('feature_disabled');
      }
      const user = await off.app.inject({
        method: 'GET',
        url: '/v1/user',
        headers: { authorization: `Bearer ${account.accessToken}` },
      });
      expect(user.json().feature_configs).toEqual({ feedback_enabled: true, tts_video_generation: false });
    } finally {
      await off.close();
    }
  });
});
