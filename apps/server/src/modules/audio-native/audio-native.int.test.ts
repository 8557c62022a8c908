import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { AUDIO_NATIVE_ANALYTICS_MAX_DAYS } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../platform/clock';
import type { JobContext } from '../../platform/jobs/job-definition';
import type { JobWorker } from '../../platform/jobs/job-worker';
import { characterCountOf, newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { startTestWorker } from '../../test/test-worker';
import { convertJob } from '../studio/studio.jobs';
import { studioProjects } from '../studio/studio.tables';
import { audioNativeRetentionJob } from './audio-native.jobs';
import { audioNativeModule } from './audio-native.module';
import { audioNativeProjects, audioNativeSessions } from './audio-native.tables';

/*
 * Audio Native (issue 30 item 4, "Done when"): the official SDK's audioNative.create (an HTML article,
 * converted by Studio's job with flite, the cheapest engine, and charged), getSettings, update (file,
 * auto_publish false keeps the published snapshot) and updateContentFromUrl (the page the player reported,
 * fetched by Studio's URL import); the public player's script, config, ranged audio and analytics beacons
 * with their CORS: any origin while the project names none, then only the named ones — another origin is
 * refused and counts nothing. Bad input is refused with the error shape and stores nothing.
 */

let t: TestApp;
let baseUrl: string;
let worker: JobWorker;
let owner: SpeechAccount;
let pages: http.Server;
let pageBase: string;
const db = () => t.deps.database.db;

const SARAH = 'pMsXgVXv3BLzUgSXRplE';
const FLITE = 'parla_english_v1';
const BLOG = 'https://blog.example';

const ARTICLE = `<html><head><title>Tides</title><script>alert("never spoken")</script></head>
<body><h1>Why the tide turns</h1><p>The moon pulls the sea a little every hour.</p><p>Twice a day the water rises.</p></body></html>`;
const UPDATED = '<html><body><p>The sun pulls the sea as well, but less.</p></body></html>';

async function waitForConversion(projectId: string) {
  for (let i = 0; i < 300; i++) {
    const project = await owner.sdk.studio.projects.get(projectId);
    if (project.state !== 'converting') return project;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the conversion did not finish');
}

const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${baseUrl}${path}`, init);

const beacon = (projectId: string, body: unknown, origin?: string) =>
  call(`/v1/audio-native/${projectId}/events`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', ...(origin ? { origin } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const analytics = async (projectId: string) => {
  const response = await call(`/v1/audio-native/${projectId}/analytics`, {
    headers: { 'xi-api-key': owner.key },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    duration_secs: number;
    days: { date: string; loads: number; plays: number; listeners: number; listened_secs: number }[];
    totals: {
      loads: number;
      plays: number;
      listeners: number;
      listened_secs: number;
      listen_through: number;
    };
  };
};

const projectsOf = async (workspaceId: string) =>
  (await db().select().from(studioProjects).where(eq(studioProjects.workspaceId, workspaceId))).length;

beforeAll(async () => {
  // The page server is on 127.0.0.1: private addresses are allowed for this app only.
  t = await createTestApp({ env: { STT_URL_ALLOWED_HOSTS: '*', STT_URL_ALLOW_PRIVATE: 'true' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  worker = await startTestWorker(t, [convertJob]);
  pages = http.createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(UPDATED);
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pageBase = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  owner = await newSpeechAccount(t.app, baseUrl);
}, 60_000);

afterAll(async () => {
  await worker?.stop(20_000);
  await new Promise((resolve) => pages?.close(resolve));
  await t?.close();
});

describe('Audio Native through the official SDK', () => {
  it('creates, converts, serves, counts and refreshes a project', async () => {
    const sdk = owner.sdk;
    const creditsBefore = await characterCountOf(db(), owner.workspaceId);
    const created = await sdk.audioNative.create({
      name: 'Tides',
      title: 'Why the tide turns',
      author: 'A. Writer',
      small: true,
      textColor: '#102030',
      backgroundColor: '#fafafa',
      sessionization: 5,
      voiceId: SARAH,
      modelId: FLITE,
      file: new Blob([ARTICLE], { type: 'text/html' }) as unknown as File,
      autoConvert: true,
    });
    expect(created.converting).toBe(true);
    expect(created.htmlSnippet).toContain(`data-project-id="${created.projectId}"`);
    expect(created.htmlSnippet).toContain('/audio-native.js" async></script>');
    expect(created.htmlSnippet).toContain('data-text-color="#102030"');
    const projectId = created.projectId;

    // The Audio Native project IS the Studio project: its content came from the article (no script text).
    const studio = await sdk.studio.projects.get(projectId);
    expect(studio.defaultModelId).toBe(FLITE);
    await waitForConversion(projectId);
    expect(await characterCountOf(db(), owner.workspaceId)).toBeGreaterThan(creditsBefore);

    const settings = await sdk.audioNative.getSettings(projectId);
    expect(settings.enabled).toBe(true);
    expect(settings.snapshotId).toBeTruthy();
    expect(settings.settings).toMatchObject({
      title: 'Why the tide turns',
      author: 'A. Writer',
      small: true,
      textColor: '#102030',
      backgroundColor: '#fafafa',
      sessionization: 5,
      status: 'ready',
    });
    const audioPath = settings.settings?.audioPath ?? '';
    expect(audioPath).toContain(`/v1/audio-native/${projectId}/audio`);

    // The public player, from a page on another origin (no list yet: any origin may embed it).
    const config = await call(`/v1/audio-native/${projectId}/player`, { headers: { origin: BLOG } });
    expect(config.status).toBe(200);
    expect(config.headers.get('access-control-allow-origin')).toBe(BLOG);
    expect(config.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const player = (await config.json()) as { status: string; duration_secs: number; small: boolean };
    expect(player).toMatchObject({ status: 'ready', small: true });
    expect(player.duration_secs).toBeGreaterThan(1);

    const whole = await call(audioPath, { headers: { origin: BLOG } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    const size = (await whole.arrayBuffer()).byteLength;
    expect(size).toBeGreaterThan(1000);
    const ranged = await call(audioPath, { headers: { origin: BLOG, range: 'bytes=100-199' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-199/${size}`);
    expect(ranged.headers.get('access-control-allow-origin')).toBe(BLOG);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);

    // Beacons: a load (which names the page), a play and 2.5 s listened in one session; a second session loads only.
    const session = 'a1b2c3d4-0000-4000-8000-000000000001';
    for (const body of [
      { type: 'load', session, page: `${BLOG}/posts/tides?utm=x` },
      { type: 'play', session },
      { type: 'progress', session, listened: 2.5 },
      { type: 'load', session: 'a1b2c3d4-0000-4000-8000-000000000002' },
    ]) {
      const response = await beacon(projectId, body, BLOG);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(BLOG);
    }
    const counted = await analytics(projectId);
    expect(counted.totals).toMatchObject({ loads: 2, plays: 1, listeners: 1, listened_secs: 2.5 });
    expect(counted.totals.listen_through).toBeCloseTo(Math.min(1, 2.5 / counted.duration_secs), 2);
    expect(counted.days).toHaveLength(1);
    const [row] = await db()
      .select()
      .from(audioNativeProjects)
      .where(eq(audioNativeProjects.projectId, projectId));
    expect(row?.pageUrl).toBe(`${BLOG}/posts/tides`);

    // Only the blog from now on: another origin is refused everywhere and counts nothing.
    const patched = await call(`/v1/audio-native/${projectId}/settings`, {
      method: 'PATCH',
      headers: { 'xi-api-key': owner.key, 'content-type': 'application/json' },
      body: JSON.stringify({ allowed_origins: [BLOG] }),
    });
    expect(patched.status).toBe(200);
    const evil = 'https://evil.example';
    const refusedConfig = await call(`/v1/audio-native/${projectId}/player`, { headers: { origin: evil } });
    expect(refusedConfig.status).toBe(403);
    expect(refusedConfig.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await refusedConfig.json()) as { detail: { status: string } }).detail.status).toBe('forbidden');
    expect((await call(audioPath, { headers: { origin: evil } })).status).toBe(403);
    // A media request without Origin from another site (no crossorigin attribute) is refused too.
    expect((await call(audioPath, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await beacon(projectId, { type: 'play', session }, evil)).status).toBe(403);
    expect((await call(`/v1/audio-native/${projectId}/player`, { headers: { origin: BLOG } })).status).toBe(
      200,
    );
    expect((await analytics(projectId)).totals.plays).toBe(1);

    // update: new content, not converted, not published — the published snapshot stays.
    const updated = await sdk.audioNative.update(projectId, {
      file: new Blob([UPDATED], { type: 'text/html' }) as unknown as File,
      autoConvert: false,
      autoPublish: false,
    });
    expect(updated).toMatchObject({ projectId, converting: false, publishing: false });
    expect((await sdk.audioNative.getSettings(projectId)).snapshotId).toBe(settings.snapshotId);

    // updateContentFromUrl: the project embedded on that page is refreshed from it, converted and published.
    const page = `${pageBase}/posts/sun`;
    await call(`/v1/audio-native/${projectId}/settings`, {
      method: 'PATCH',
      headers: { 'xi-api-key': owner.key, 'content-type': 'application/json' },
      body: JSON.stringify({ page_url: page }),
    });
    const fromUrl = await sdk.audioNative.updateContentFromUrl({
      url: `${page}?ref=feed`,
      title: 'The sun too',
    });
    expect(fromUrl).toMatchObject({ projectId, converting: true, publishing: true });
    await waitForConversion(projectId);
    const refreshed = await sdk.audioNative.getSettings(projectId);
    expect(refreshed.snapshotId).toBeTruthy();
    expect(refreshed.snapshotId).not.toBe(settings.snapshotId);
    expect(refreshed.settings?.title).toBe('The sun too');
    const { chapters } = await sdk.studio.projects.chapters.list(projectId);
    const chapter = await sdk.studio.projects.chapters.get(projectId, chapters[0]?.chapterId ?? '');
    expect(JSON.stringify(chapter.content)).toContain('The sun pulls the sea');
  }, 120_000);
});

describe('the embed script', () => {
  it('is public, loadable cross-origin, and under 20 KB gzipped', async () => {
    const response = await call('/audio-native.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/javascript/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const script = await response.text();
    // The stylesheet is inlined for the constructable stylesheet (no placeholder left).
    expect(script).not.toContain('AUDIO_NATIVE_CSS');
    expect(script).toContain('adoptedStyleSheets');
    expect(gzipSync(script, { level: 9 }).byteLength).toBeLessThan(20 * 1024);
    const css = await call('/audio-native.css');
    expect(css.headers.get('content-type')).toMatch(/text\/css/);
  });
});

describe('bad input', () => {
  it('is refused with the error shape and stores nothing', async () => {
    const before = await projectsOf(owner.workspaceId);
    const cases: [Record<string, string>, number, string][] = [
      [{ name: 'x', text_color: 'red' }, 422, 'invalid_request'],
      [{ name: 'x', sessionization: 'soon' }, 422, 'invalid_request'],
      [{ name: 'x', image: 'javascript:alert(1)' }, 422, 'invalid_request'],
      [{ name: 'x', auto_convert: 'true' }, 422, 'invalid_request'],
      [{ name: 'x', voice_id: 'no-such-voice' }, 404, 'voice_not_found'],
      [{ name: '' }, 422, 'invalid_request'],
    ];
    for (const [fields, status, code] of cases) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      const response = await call('/v1/audio-native', {
        method: 'POST',
        headers: { 'xi-api-key': owner.key },
        body: form,
      });
      const body = (await response.json()) as { detail: { status: string; message: string } };
      expect([fields, response.status, body.detail.status]).toEqual([fields, status, code]);
      expect(body.detail.message.length).toBeGreaterThan(5);
    }
    expect(await projectsOf(owner.workspaceId)).toBe(before);

    // A page no project is on; another workspace's project; a malformed and an oversized beacon.
    const other = await newSpeechAccount(t.app, baseUrl);
    const { projectId } = await owner.sdk.audioNative.create({
      name: 'Empty',
      voiceId: SARAH,
      modelId: FLITE,
    });
    await expect(
      owner.sdk.audioNative.updateContentFromUrl({ url: 'https://nowhere.example/post' }),
    ).rejects.toMatchObject({ statusCode: 404 });
    await expect(other.sdk.audioNative.getSettings(projectId)).rejects.toMatchObject({ statusCode: 404 });
    expect((await beacon(projectId, '{"type": "play"')).status).toBe(422);
    expect((await beacon(projectId, { type: 'play', session: 'x' })).status).toBe(422);
    expect((await beacon(projectId, 'x'.repeat(5000))).status).toBe(413);
    expect(
      await db().select().from(audioNativeSessions).where(eq(audioNativeSessions.projectId, projectId)),
    ).toEqual([]);
    // Not converted yet: the settings say so and there is no audio to play.
    const settings = await owner.sdk.audioNative.getSettings(projectId);
    expect(settings.settings?.status).toBe('processing');
    expect((await call(`/v1/audio-native/${projectId}/audio`)).status).toBe(404);
    // The routes outside the contracts (not in the request pipeline's NUL test): a NUL id is no player.
    expect((await call('/v1/audio-native/a%00b/audio')).status).toBe(404);
    expect((await beacon('a%00b', { type: 'play', session: 'a1b2c3d4-0000' })).status).toBe(404);
    expect((await call('/health')).status).toBe(200);
  });
});

describe('the project’s page and the sessions kept', () => {
  const pageOf = async (projectId: string) =>
    (await db().select().from(audioNativeProjects).where(eq(audioNativeProjects.projectId, projectId)))[0]
      ?.pageUrl;
  const settingsPage = async (projectId: string, page_url: string | null) => {
    const response = await call(`/v1/audio-native/${projectId}/settings`, {
      method: 'PATCH',
      headers: { 'xi-api-key': owner.key, 'content-type': 'application/json' },
      body: JSON.stringify({ page_url }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { page_url: string | null }).page_url;
  };

  it('is the page most loads came from, never Parla’s own; a bad first report does not stick; the owner’s wins', async () => {
    const { projectId } = await owner.sdk.audioNative.create({
      name: 'Pages',
      voiceId: SARAH,
      modelId: FLITE,
    });
    let n = 0;
    const load = async (origin: string, page: string) => {
      n += 1;
      const session = `a1b2c3d4-0000-4000-8000-${String(n).padStart(12, '0')}`;
      expect((await beacon(projectId, { type: 'load', session, page }, origin)).status).toBe(204);
    };
    // Any origin may embed while the list is empty: a copy on another site reports first…
    const COPY = 'https://copycat.example';
    await load(COPY, `${COPY}/stolen`);
    expect(await pageOf(projectId)).toBe(`${COPY}/stolen`);
    // …and is outvoted by the real page's loads instead of sticking.
    for (const ref of ['a', 'b']) await load(BLOG, `${BLOG}/posts/tides?ref=${ref}`);
    expect(await pageOf(projectId)).toBe(`${BLOG}/posts/tides`);
    // A page on another origin than the beacon's, and Parla's own preview, are not counted.
    for (let i = 0; i < 3; i++) await load(BLOG, `${COPY}/elsewhere`);
    const own = new URL(t.deps.config.publicUrl).origin;
    for (let i = 0; i < 3; i++) await load(own, `${own}/audio-native/${projectId}`);
    expect(await pageOf(projectId)).toBe(`${BLOG}/posts/tides`);

    // The owner's page stays whatever players report; unset, the most loaded page is back.
    expect(await settingsPage(projectId, `${BLOG}/posts/tides-2`)).toBe(`${BLOG}/posts/tides-2`);
    for (let i = 0; i < 3; i++) await load(BLOG, `${BLOG}/posts/tides`);
    expect(await pageOf(projectId)).toBe(`${BLOG}/posts/tides-2`);
    expect(await settingsPage(projectId, null)).toBe(`${BLOG}/posts/tides`);
  });

  it('deletes sessions only before the longest period the analytics show, which stay exact', async () => {
    // Another account: the owner's plan has no Studio project left by now.
    const keeper = await newSpeechAccount(t.app, baseUrl);
    const { projectId } = await keeper.sdk.audioNative.create({
      name: 'Kept',
      voiceId: SARAH,
      modelId: FLITE,
    });
    const dayAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    const session = (day: string, id: string, plays: number, listenedSecs: number) => ({
      projectId,
      day,
      sessionId: id,
      loads: 1,
      plays,
      listenedSecs,
      origin: BLOG,
    });
    await db()
      .insert(audioNativeSessions)
      .values([
        session(dayAgo(AUDIO_NATIVE_ANALYTICS_MAX_DAYS), 'gone-1', 1, 40),
        session(dayAgo(AUDIO_NATIVE_ANALYTICS_MAX_DAYS + 30), 'gone-2', 0, 0),
        session(dayAgo(AUDIO_NATIVE_ANALYTICS_MAX_DAYS - 1), 'kept-1', 1, 12.5),
        session(dayAgo(3), 'kept-2', 1, 3),
        session(dayAgo(0), 'kept-3', 0, 0),
      ]);
    const longest = async () => {
      const response = await call(
        `/v1/audio-native/${projectId}/analytics?days=${AUDIO_NATIVE_ANALYTICS_MAX_DAYS}`,
        { headers: { 'xi-api-key': keeper.key } },
      );
      expect(response.status).toBe(200);
      return response.json();
    };
    const before = await longest();
    expect(before).toMatchObject({ totals: { loads: 3, plays: 2, listeners: 2, listened_secs: 15.5 } });

    await audioNativeRetentionJob.handler({}, {} as JobContext, { db: db(), clock: systemClock });
    const left = await db()
      .select({ sessionId: audioNativeSessions.sessionId })
      .from(audioNativeSessions)
      .where(eq(audioNativeSessions.projectId, projectId));
    expect(left.map((r) => r.sessionId).sort()).toEqual(['kept-1', 'kept-2', 'kept-3']);
    expect(await longest()).toEqual(before);
    // It runs on the worker's schedule.
    expect(audioNativeModule.schedules?.map((s) => s.definition.name)).toContain('audio-native.retention');
  });
});
