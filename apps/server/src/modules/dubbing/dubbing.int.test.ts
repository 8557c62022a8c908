import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { workerJobs } from '../../modules';
import type { JobWorker } from '../../platform/jobs/job-worker';
import {
  callAs,
  characterCountOf,
  newSpeechAccount,
  type SpeechAccount,
  setCharacterCount,
} from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { makeMediaFile } from '../../test/test-signals';
import { startTestWorker } from '../../test/test-worker';
import { dubJob, renderJob } from './dubbing.jobs';
import { dubs } from './dubbing.tables';

/*
 * Dubs' rows and refusals on both databases (issue 29): what is refused before anything is stored or
 * charged (no file, a video without sound, a language this installation cannot do, a plan without the
 * credits, another workspace's dub), the list's pages and filters, a dub that fails in its job (its
 * credits refunded, `refunded` set), and the checklist's create_dub.
 */

let t: TestApp;
let baseUrl: string;
let worker: JobWorker;
let silentVideo: Buffer;
let tone: Buffer;
const db = () => t.deps.database.db;

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  worker = await startTestWorker(t, [dubJob, renderJob]);
  silentVideo = await makeMediaFile('silent.mp4', [
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=64x48:rate=10:duration=2',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
  ]);
  // A steady tone: sound, but no speech for the recogniser to hear.
  tone = await makeMediaFile('tone.wav', ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3']);
}, 60_000);
afterAll(async () => {
  await worker.stop(20_000);
  await t.close();
});

async function post(key: string, fields: Record<string, string>, file?: { bytes: Buffer; name: string }) {
  const form = new FormData();
  if (file) form.append('file', new Blob([file.bytes]), file.name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const response = await fetch(`${baseUrl}/v1/dubbing`, {
    method: 'POST',
    headers: { 'xi-api-key': key },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The signed-in user's call (the onboarding checklist is the user's, not an API key's). */
const asUser = (account: SpeechAccount, method: 'GET' | 'POST', url: string) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${account.token}` } });

/** The checklist items the account's user has completed. */
async function completedItems(account: SpeechAccount): Promise<string[]> {
  const { checklist } = (await asUser(account, 'GET', '/v1/user/onboarding-checklist')).json() as {
    checklist: { items: { onboarding_checklist_item_id: string; is_completed: boolean }[] } | null;
  };
  return (checklist?.items ?? []).filter((i) => i.is_completed).map((i) => i.onboarding_checklist_item_id);
}

const countDubs = async (workspaceId: string) =>
  (await db().select().from(dubs).where(eq(dubs.workspaceId, workspaceId))).length;

describe('creating a dub', () => {
  it('refuses what cannot be dubbed before storing or charging anything', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const cases: [Record<string, string>, { bytes: Buffer; name: string } | undefined, number, RegExp][] = [
      [{ target_lang: 'es' }, undefined, 422, /file/],
      [{}, { bytes: tone, name: 'tone.wav' }, 422, /language to dub into/],
      [{ target_lang: 'xx' }, { bytes: tone, name: 'tone.wav' }, 400, /29 dubbing languages/],
      [
        { target_lang: 'de' },
        { bytes: tone, name: 'tone.wav' },
        400,
        /cannot translate from English to German/,
      ],
      [{ target_lang: 'es', source_lang: 'es' }, { bytes: tone, name: 'tone.wav' }, 422, /must differ/],
      [{ target_lang: 'es' }, { bytes: silentVideo, name: 'silent.mp4' }, 400, /no audio track to dub/],
      [{ target_lang: 'es' }, { bytes: Buffer.from('not a video at all'), name: 'x.mp4' }, 415, /./],
      [
        { target_lang: 'es', start_time: '5', end_time: '2' },
        { bytes: tone, name: 'tone.wav' },
        422,
        /after start_time/,
      ],
      [{ target_lang: 'es', mode: 'manual' }, { bytes: tone, name: 'tone.wav' }, 422, /csv_file/],
      [{ target_lang: 'es', source_url: 'http://127.0.0.1:1/x.mp4' }, undefined, 400, /./],
    ];
    for (const [fields, file, status, message] of cases) {
      const answer = await post(account.key, fields, file);
      expect(answer.status, JSON.stringify([fields, answer.body])).toBe(status);
      expect(JSON.stringify(answer.body)).toMatch(message);
    }
    expect(await countDubs(account.workspaceId)).toBe(0);
    expect(await characterCountOf(db(), account.workspaceId)).toBe(0);
  });

  it('refuses a plan without the credits for the minutes', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    await setCharacterCount(db(), account.workspaceId, 9_990);
    const answer = await post(account.key, { target_lang: 'es' }, { bytes: tone, name: 'tone.wav' });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ detail: { status: 'quota_exceeded' } });
    expect(await countDubs(account.workspaceId)).toBe(0);
  });

  it('fails a source without speech in its job, refunds it, and ticks create_dub', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    expect((await asUser(account, 'POST', '/v1/user/onboarding-checklist/initiate')).statusCode).toBe(200);
    const answer = await post(
      account.key,
      { target_lang: 'es', name: 'Tone' },
      { bytes: tone, name: 'tone.wav' },
    );
    expect(answer.status).toBe(200);
    const id = answer.body.dubbing_id as string;
    let dub: Record<string, unknown> = {};
    for (let i = 0; i < 300 && dub.status !== 'failed' && dub.status !== 'dubbed'; i++) {
      dub = (await callAs(t.app, account, 'GET', `/v1/dubbing/${id}`)).json();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(dub).toMatchObject({
      status: 'failed',
      refunded: true,
      error: 'No speech was found in the source to dub.',
      usage: { credits: 0 },
      name: 'Tone',
      target_languages: ['es'],
      targets: [{ language: 'es', translation: 'apertium: en → es', status: 'failed' }],
    });
    expect(await characterCountOf(db(), account.workspaceId)).toBe(0);
    expect(await completedItems(account)).toContain('create_dub');
    // Not editable, and its audio is not there.
    expect((await callAs(t.app, account, 'GET', `/v1/dubbing/${id}/audio/es`)).statusCode).toBe(409);
  }, 60_000);
});

describe('a dub whose job gave up', () => {
  it('is failed, not left dubbing, when its last attempt failed or its process died (onExhausted)', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const answer = await post(
      account.key,
      { target_lang: 'es', name: 'Given up' },
      { bytes: tone, name: 'tone.wav' },
    );
    const id = answer.body.dubbing_id as string;
    await vi.waitFor(
      async () =>
        expect((await callAs(t.app, account, 'GET', `/v1/dubbing/${id}`)).json().status).toBe('failed'),
      { timeout: 30_000, interval: 100 },
    );
    // As a run whose process died leaves it: still dubbing, no run left to end it.
    await db().update(dubs).set({ status: 'dubbing', error: null, refunded: false }).where(eq(dubs.id, id));
    const [job] = workerJobs(t.deps, [dubJob]);
    await job?.onExhausted?.(
      { dubId: id, workspaceId: account.workspaceId },
      { jobId: 'j1', error: 'lease lost' },
    );
    expect((await callAs(t.app, account, 'GET', `/v1/dubbing/${id}`)).json()).toMatchObject({
      status: 'failed',
      refunded: true,
      error: 'The dub failed on the server. Its credits were refunded.',
    });
  }, 60_000);
});

describe('another workspace’s dub, and the list', () => {
  it('answers 404 for an unknown or foreign dub, and pages the list with its filters', async () => {
    const a = await newSpeechAccount(t.app, baseUrl);
    const b = await newSpeechAccount(t.app, baseUrl);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await post(
        a.key,
        { target_lang: 'es', name: `Dub ${i}` },
        { bytes: tone, name: 'tone.wav' },
      );
      ids.push(answer.body.dubbing_id as string);
    }
    for (const path of [`/v1/dubbing/${ids[0]}`, '/v1/dubbing/nope', `/v1/dubbing/resource/${ids[0]}`])
      expect((await callAs(t.app, b, 'GET', path)).statusCode).toBe(404);
    expect((await callAs(t.app, b, 'DELETE', `/v1/dubbing/${ids[0]}`)).statusCode).toBe(404);
    const first = (await callAs(t.app, a, 'GET', '/v1/dubbing?page_size=2')).json();
    expect(first.dubs.map((d: { name: string }) => d.name)).toEqual(['Dub 2', 'Dub 1']);
    expect(first.has_more).toBe(true);
    const second = (
      await callAs(t.app, a, 'GET', `/v1/dubbing?page_size=2&cursor=${first.next_cursor}`)
    ).json();
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.dubs.map((d: { name: string }) => d.name)).toEqual(['Dub 0']);
    expect((await callAs(t.app, b, 'GET', '/v1/dubbing')).json().dubs).toEqual([]);
    expect((await callAs(t.app, a, 'GET', '/v1/dubbing?cursor=garbage')).statusCode).toBe(422);
    await callAs(t.app, a, 'DELETE', `/v1/dubbing/${ids[1]}`);
    expect((await callAs(t.app, a, 'GET', `/v1/dubbing/${ids[1]}`)).statusCode).toBe(404);
    expect((await t.deps.storage.list(`dubbing/${a.workspaceId}/${ids[1]}/`)).length).toBe(0);
  }, 60_000);

  it('lists the 29 languages with what this installation can do', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const { languages } = (await callAs(t.app, account, 'GET', '/v1/dubbing/languages')).json();
    expect(languages).toHaveLength(29);
    const of = (code: string) => languages.find((l: { code: string }) => l.code === code);
    expect(of('es')).toMatchObject({
      translation: 'offline',
      can_translate_from_english: true,
      can_speak: true,
    });
    expect(of('pt')).toMatchObject({ translation: 'offline_pivot', pivot: ['es'] });
    expect(of('de')).toMatchObject({ translation: 'none', can_translate_from_english: false });
  });
});
