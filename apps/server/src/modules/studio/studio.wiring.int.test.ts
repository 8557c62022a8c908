import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseWav } from '@parla/audio';
import { STUDIO_DEFAULT_MODEL_ID, STUDIO_DEFAULT_VOICE_ID } from '@parla/contracts';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JobWorker } from '../../platform/jobs/job-worker';
import { runMediaTool } from '../../platform/media/run-media-tool';
import { newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { startTestWorker } from '../../test/test-worker';
import { convertJob } from './studio.jobs';

/*
 * Studio wired to the pronunciation dictionaries, the audiobook mastering and the exports (issue 30 items
 * 1–2; decision 25 "Studio projects"). Cheap on purpose: flite (parla_english_v1), two chapters of a few
 * words. A rule added to the project's dictionary reaches the engine and changes the block's audio, and a
 * reconversion speaks only that block; an unknown or another workspace's dictionary is the dictionaries'
 * 404 with nothing stored; the response lists the resolved versions; the default voice and model of a new
 * project are Piper's; a normalised conversion keeps an ACX report that passes; m4b, zip, mp3 and wav
 * exports; 409 before any conversion; another workspace's project is a 404.
 */

/** A JSON answer as read in these checks (its shape is what they check). */
// biome-ignore lint/suspicious/noExplicitAny: the checks below are the shape's test
type Json = any;

let t: TestApp;
let baseUrl: string;
let worker: JobWorker;
let owner: SpeechAccount;
let other: SpeechAccount;

const SARAH = 'pMsXgVXv3BLzUgSXRplE';
const FLITE = 'parla_english_v1';

const api = (account: SpeechAccount, pathname: string, init: RequestInit = {}) =>
  fetch(`${baseUrl}${pathname}`, {
    ...init,
    headers: { 'xi-api-key': account.key, ...(init.headers as Record<string, string> | undefined) },
  });

/** A project made from content JSON (multipart, as the SDK sends it). */
async function createProject(account: SpeechAccount, fields: Record<string, string | string[]>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields))
    for (const value of Array.isArray(v) ? v : [v]) form.append(k, value);
  const response = await api(account, '/v1/studio/projects', { method: 'POST', body: form });
  return { status: response.status, body: (await response.json()) as Json };
}

const content = (chapters: { name: string; paragraphs: string[] }[]) =>
  JSON.stringify(
    chapters.map((c) => ({
      name: c.name,
      blocks: c.paragraphs.map((text) => ({
        sub_type: 'p',
        nodes: [{ type: 'tts_node', text, voice_id: SARAH }],
      })),
    })),
  );

/** Converts the project; answers it once the conversion has ended (polled, 30 s by the clock at most). */
async function convert(account: SpeechAccount, projectId: string) {
  const started = await api(account, `/v1/studio/projects/${projectId}/convert`, { method: 'POST' });
  expect(started.status).toBe(200);
  return vi.waitFor(
    async () => {
      const project = (await (await api(account, `/v1/studio/projects/${projectId}`)).json()) as Json;
      if (project.state === 'converting') throw new Error('the conversion did not finish');
      return project;
    },
    { timeout: 30_000, interval: 100 },
  );
}

async function download(account: SpeechAccount, pathname: string) {
  const response = await api(account, pathname);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function probeFile(bytes: Buffer, entries: string[]): Promise<Json> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'studio-wiring-'));
  try {
    const file = path.join(dir, 'audio');
    await fs.writeFile(file, bytes);
    const { stdout, exit } = await runMediaTool('ffprobe', ['-v', 'error', ...entries, '-of', 'json', file], {
      timeoutMs: 30_000,
    });
    expect(exit.code).toBe(0);
    return JSON.parse(stdout.toString()) as Json;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  worker = await startTestWorker(t, [convertJob]);
  owner = await newSpeechAccount(t.app, baseUrl);
  other = await newSpeechAccount(t.app, baseUrl);
}, 60_000);
afterAll(async () => {
  await worker.stop(20_000);
  await t.close();
});

describe('Studio with pronunciation dictionaries', () => {
  it('speaks a rule added to the project’s dictionary in the block that has the word, and only that block again', async () => {
    const dictionary = await owner.sdk.pronunciationDictionaries.createFromRules({
      name: 'Names',
      rules: [{ type: 'alias', stringToReplace: 'tomato', alias: 'tomahto' }],
    });
    const foreign = await other.sdk.pronunciationDictionaries.createFromRules({
      name: 'Theirs',
      rules: [{ type: 'alias', stringToReplace: 'x', alias: 'y' }],
    });
    const locator = JSON.stringify({ pronunciation_dictionary_id: dictionary.id });
    const fields = {
      name: 'Dictionary book',
      default_model_id: FLITE,
      default_title_voice_id: SARAH,
      default_paragraph_voice_id: SARAH,
      from_content_json: content([{ name: 'One', paragraphs: ['Zed went home.', 'The sea was calm.'] }]),
    };
    // Another workspace's dictionary, and an unknown one: the dictionaries' 404, nothing stored.
    for (const id of [foreign.id, 'no-such-dictionary']) {
      const refused = await createProject(owner, {
        ...fields,
        pronunciation_dictionary_locators: JSON.stringify({ pronunciation_dictionary_id: id }),
      });
      expect(refused.status).toBe(404);
      expect(refused.body.detail.status).toBe('pronunciation_dictionary_not_found');
    }
    expect((await owner.sdk.studio.projects.list()).projects).toHaveLength(0);

    const made = await createProject(owner, { ...fields, pronunciation_dictionary_locators: locator });
    expect(made.status).toBe(200);
    const projectId = made.body.project.project_id as string;
    const engine = vi.spyOn(t.deps.providers.tts, 'synthesize');
    const spoken = () => engine.mock.calls.map(([request]) => request.text);
    const first = await convert(owner, projectId);
    expect(first.pronunciation_dictionary_versions).toEqual([
      expect.objectContaining({
        pronunciation_dictionary_id: dictionary.id,
        version_id: dictionary.versionId,
        version_rules_num: 1,
        dictionary_name: 'Names',
      }),
    ]);
    expect(spoken().sort()).toEqual(['The sea was calm.', 'Zed went home.']);
    const chapterId = first.chapters[0].chapter_id as string;
    const wavBefore = (
      await download(owner, `/v1/studio/projects/${projectId}/chapters/${chapterId}/export?format=wav`)
    ).bytes;

    // The dictionary changes (a new latest version): the project's locator follows it; only the block
    // with the new rule's word is spoken again.
    await owner.sdk.pronunciationDictionaries.rules.add(dictionary.id, {
      rules: [{ type: 'alias', stringToReplace: 'Zed', alias: 'Zachary the zebra keeper' }],
    });
    engine.mockClear();
    const second = await convert(owner, projectId);
    expect(second.pronunciation_dictionary_versions[0].version_rules_num).toBe(2);
    expect(second.pronunciation_dictionary_versions[0].version_id).not.toBe(dictionary.versionId);
    // One engine call: the block with the word, spoken with the alias; the other block's audio is reused.
    expect(spoken()).toEqual(['Zachary the zebra keeper went home.']);
    const wavAfter = (
      await download(owner, `/v1/studio/projects/${projectId}/chapters/${chapterId}/export?format=wav`)
    ).bytes;
    const seconds = (bytes: Buffer) => {
      const wav = parseWav(bytes);
      return wav.samples.length / wav.sampleRate;
    };
    expect(seconds(wavAfter)).toBeGreaterThan(seconds(wavBefore) + 0.5);

    // Setting the dictionaries: a foreign one is refused and the project keeps its list.
    const set = await api(owner, `/v1/studio/projects/${projectId}/pronunciation-dictionaries`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: foreign.id }],
        invalidate_affected_text: true,
      }),
    });
    expect(set.status).toBe(404);
    const kept = (await (await api(owner, `/v1/studio/projects/${projectId}`)).json()) as Json;
    expect(kept.pronunciation_dictionary_locators).toEqual([
      { pronunciation_dictionary_id: dictionary.id, version_id: null },
    ]);
    engine.mockRestore();
  }, 60_000);
});

describe('Studio defaults, mastering and exports', () => {
  it('makes a new project speak with a Piper voice and model unless told otherwise', async () => {
    const made = await createProject(owner, { name: 'Defaults' });
    expect(made.status).toBe(200);
    expect(made.body.project).toMatchObject({
      default_title_voice_id: STUDIO_DEFAULT_VOICE_ID,
      default_paragraph_voice_id: STUDIO_DEFAULT_VOICE_ID,
      default_model_id: STUDIO_DEFAULT_MODEL_ID,
    });
    expect(STUDIO_DEFAULT_MODEL_ID).toBe('parla_neural_fast_v1');
    // A voice Piper does not speak keeps text to speech's default model.
    const sarah = await createProject(owner, { name: 'Sarah', default_paragraph_voice_id: SARAH });
    expect(sarah.body.project.default_model_id).not.toBe(STUDIO_DEFAULT_MODEL_ID);
    for (const id of [made.body.project.project_id, sarah.body.project.project_id])
      await api(owner, `/v1/studio/projects/${id}`, { method: 'DELETE' });
  });

  it('masters each chapter into ACX’s window and exports the book as m4b, zip, mp3 and wav', async () => {
    const made = await createProject(owner, {
      name: 'Small Book',
      title: 'The Small Book',
      author: 'A. Writer',
      isbn_number: '978-3-16-148410-0',
      default_model_id: FLITE,
      default_title_voice_id: SARAH,
      default_paragraph_voice_id: SARAH,
      acx_volume_normalization: 'true',
      from_content_json: content([
        { name: 'Harbour', paragraphs: ['The boat came in at dawn.'] },
        { name: 'Town', paragraphs: ['The streets were empty.'] },
      ]),
    });
    expect(made.status).toBe(200);
    const projectId = made.body.project.project_id as string;
    const chapters = (await (await api(owner, `/v1/studio/projects/${projectId}/chapters`)).json()) as {
      chapters: { chapter_id: string }[];
    };
    const chapterId = chapters.chapters[0]?.chapter_id as string;

    // Before any conversion: 409 for the exports, 404 for the report.
    const early = await api(owner, `/v1/studio/projects/${projectId}/export?format=m4b`);
    expect(early.status).toBe(409);
    expect(((await early.json()) as Json).detail).toMatchObject({ status: 'conflict' });
    expect((await api(owner, `/v1/studio/projects/${projectId}/chapters/${chapterId}/acx`)).status).toBe(404);

    await convert(owner, projectId);
    const acx = (await (
      await api(owner, `/v1/studio/projects/${projectId}/chapters/${chapterId}/acx`)
    ).json()) as Json;
    expect(acx).toMatchObject({
      normalized: true,
      pass: true,
      passes: { rms: true, peak: true, noise_floor: true },
    });
    expect(acx.rms_db).toBeGreaterThanOrEqual(-23);
    expect(acx.rms_db).toBeLessThanOrEqual(-18);
    expect(acx.peak_db).toBeLessThanOrEqual(-3);

    // The cover (a 1 × 1 PNG) goes into the m4b as its cover art and into each mp3 as its picture.
    const cover = new FormData();
    cover.append(
      'file',
      new Blob([
        Buffer.from(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
          'base64',
        ),
      ]),
      'cover.png',
    );
    expect(
      (await api(owner, `/v1/studio/projects/${projectId}/cover`, { method: 'POST', body: cover })).status,
    ).toBe(200);
    const m4b = await download(owner, `/v1/studio/projects/${projectId}/export?format=m4b`);
    expect(m4b.response.status).toBe(200);
    const pictures = async (bytes: Buffer) =>
      (
        (await probeFile(bytes, ['-show_entries', 'stream=codec_name:stream_disposition=attached_pic'])) as {
          streams: { codec_name: string; disposition?: { attached_pic?: number } }[];
        }
      ).streams
        .filter((s) => s.disposition?.attached_pic === 1)
        .map((s) => s.codec_name);
    expect(await pictures(m4b.bytes)).toEqual(['png']);
    expect(m4b.response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="The Small Book\.m4b"/,
    );
    const probed = await probeFile(m4b.bytes, [
      '-show_chapters',
      '-show_entries',
      'format_tags=title,artist',
    ]);
    expect(probed.chapters.map((c: { tags: { title: string } }) => c.tags.title)).toEqual([
      'Harbour',
      'Town',
    ]);
    expect(probed.format.tags).toMatchObject({ title: 'The Small Book', artist: 'A. Writer' });

    const zip = await download(owner, `/v1/studio/projects/${projectId}/export?format=zip`);
    expect(zip.response.headers.get('content-type')).toBe('application/zip');
    expect(Object.keys(unzipSync(new Uint8Array(zip.bytes))).sort()).toEqual([
      '01 - Harbour.mp3',
      '02 - Town.mp3',
    ]);

    const mp3 = await download(owner, `/v1/studio/projects/${projectId}/export?format=mp3`);
    expect((await probeFile(mp3.bytes, ['-show_entries', 'stream=codec_name'])).streams[0].codec_name).toBe(
      'mp3',
    );
    const chapterMp3 = await download(
      owner,
      `/v1/studio/projects/${projectId}/chapters/${chapterId}/export?format=mp3`,
    );
    expect(chapterMp3.response.status).toBe(200);
    expect(chapterMp3.response.headers.get('content-disposition')).toMatch(/filename="Harbour\.mp3"/);
    expect(await pictures(chapterMp3.bytes)).toEqual(['png']);
    expect(
      (await probeFile(chapterMp3.bytes, ['-show_entries', 'stream=codec_name'])).streams[0].codec_name,
    ).toBe('mp3');

    // A bad format is a 422; another workspace's project is a 404 for every one of these routes.
    expect((await api(owner, `/v1/studio/projects/${projectId}/export?format=ogg`)).status).toBe(422);
    for (const pathname of [
      `/v1/studio/projects/${projectId}/export?format=m4b`,
      `/v1/studio/projects/${projectId}/chapters/${chapterId}/export?format=wav`,
      `/v1/studio/projects/${projectId}/chapters/${chapterId}/acx`,
    ])
      expect((await api(other, pathname)).status).toBe(404);
  }, 60_000);
});
