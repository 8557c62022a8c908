import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { newId } from '../../platform/ids';
import { jobs } from '../../platform/jobs/jobs.tables';
import { characterCountOf, newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { startTestWorker } from '../../test/test-worker';
import { abandonConversion, type ConversionPayload, runConversion } from './studio.convert';
import { studioDepsOf } from './studio.deps';
import { convertJob } from './studio.jobs';
import { projectFolder } from './studio.rules';
import { studioBlocks, studioChapters, studioProjects } from './studio.tables';

/*
 * A conversion's edges, run by calling the job's body (runConversion) on a conversion the API started (no
 * worker: the queue's job is kept by the test, never stored, and each test runs it itself, so nothing here
 * waits on a poll). flite (parla_english_v1, half a credit per character) and a few words a block keep it
 * cheap. What is checked: a block whose audio is kept was paid for, to the credit, when a later block
 * fails; identical blocks are spoken and charged once; a late progress write never undoes a failed state;
 * two starts at once (and content with a start) serialise; a project deleted while it converts leaves no
 * file behind; a job whose process died on its last attempt fails the conversion; a chapter read compiles
 * a dictionary version's rules once.
 */

let t: TestApp;
let baseUrl: string;
let owner: SpeechAccount;
const db = () => t.deps.database.db;
const deps = () => studioDepsOf(t.deps);

const SARAH = 'pMsXgVXv3BLzUgSXRplE';
const FLITE = 'parla_english_v1';
/** parla_english_v1's credits for a text (tts-catalog token_cost_factor 0.5, at least 1). */
const cost = (text: string) => Math.max(1, Math.ceil(text.length * 0.5));

const api = (pathname: string, init: RequestInit = {}) =>
  fetch(`${baseUrl}${pathname}`, {
    ...init,
    headers: { 'xi-api-key': owner.key, ...(init.headers as Record<string, string> | undefined) },
  });

/** A project (flite, Sarah) with these chapters of paragraphs; answers its id. */
async function makeProject(
  chapters: string[][],
  dictionary?: { id: string; versionId: string },
): Promise<string> {
  const form = new FormData();
  if (dictionary)
    form.append(
      'pronunciation_dictionary_locators',
      JSON.stringify({ pronunciation_dictionary_id: dictionary.id, version_id: dictionary.versionId }),
    );
  form.append('name', 'Edges');
  form.append('default_model_id', FLITE);
  form.append('default_title_voice_id', SARAH);
  form.append('default_paragraph_voice_id', SARAH);
  form.append(
    'from_content_json',
    JSON.stringify(
      chapters.map((paragraphs, i) => ({
        name: `Chapter ${i + 1}`,
        blocks: paragraphs.map((text) => ({
          sub_type: 'p',
          nodes: [{ type: 'tts_node', text, voice_id: SARAH }],
        })),
      })),
    ),
  );
  const response = await api('/v1/studio/projects', { method: 'POST', body: form });
  expect(response.status).toBe(200);
  return ((await response.json()) as { project: { project_id: string } }).project.project_id;
}

/**
 * The conversion jobs the API queued, by project: kept here, never stored, so no worker — another test
 * file's, on the PostgreSQL leg's shared database — runs them; each test runs its conversion itself.
 */
const queued = new Map<string, ConversionPayload[]>();

/** Starts the project's conversion through the API and answers the job's payload. */
async function startConversion(projectId: string): Promise<ConversionPayload> {
  const response = await api(`/v1/studio/projects/${projectId}/convert`, { method: 'POST' });
  expect(response.status).toBe(200);
  const payload = queued.get(projectId)?.at(-1);
  if (!payload) throw new Error('no conversion job was queued');
  return payload;
}

const run = (
  payload: ConversionPayload,
  progress: (value: number) => Promise<void> = async () => undefined,
) => runConversion(deps(), payload, { signal: new AbortController().signal, lastAttempt: true, progress });

const projectRow = async (projectId: string) =>
  (await db().select().from(studioProjects).where(eq(studioProjects.id, projectId)))[0];
const blockRows = (projectId: string) =>
  db().select().from(studioBlocks).where(eq(studioBlocks.projectId, projectId));
const chapterRows = (projectId: string) =>
  db().select().from(studioChapters).where(eq(studioChapters.projectId, projectId));
/** The block audio files in storage (their hashes). */
const storedBlocks = async (projectId: string) =>
  (await t.deps.storage.list(`${projectFolder(owner.workspaceId, projectId)}blocks/`))
    .filter((key) => key.endsWith('.wav'))
    .map((key) => key.slice(key.lastIndexOf('/') + 1, -'.wav'.length));

/** The engine, with texts containing `breaks` failing (the engine's own error, not the API's). */
function engineBreakingOn(word: string) {
  const engines = t.deps.providers.tts;
  const original = engines.synthesize.bind(engines);
  return vi.spyOn(engines, 'synthesize').mockImplementation((request, ...rest) => {
    if (request.text.includes(word)) return Promise.reject(new Error('the engine fell over'));
    return original(request, ...rest);
  });
}

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
// A workspace per test: the free plan holds three projects.
beforeEach(async () => {
  owner = await newSpeechAccount(t.app, baseUrl);
  vi.spyOn(t.deps.queue, 'enqueueIn').mockImplementation(async (_db, definition, payload) => {
    expect(definition.name).toBe(convertJob.name);
    const job = payload as ConversionPayload;
    queued.set(job.projectId, [...(queued.get(job.projectId) ?? []), job]);
    return newId();
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await t.close();
});

describe('a Studio conversion', () => {
  it('charges, to the credit, every block whose audio it keeps when a later block fails; the rerun charges the rest', async () => {
    const texts = ['The first block is short.', 'So is the second.', 'This one breaks the engine.'];
    const projectId = await makeProject([texts]);
    const payload = await startConversion(projectId);
    const before = await characterCountOf(db(), owner.workspaceId);
    const engine = engineBreakingOn('breaks');
    await run(payload);
    engine.mockRestore();

    expect(await projectRow(projectId)).toMatchObject({ state: 'default' });
    const [chapter] = await chapterRows(projectId);
    expect(chapter?.lastConversionError).toBeTruthy();
    // Each kept block's audio was paid for; nothing else was.
    const kept = new Set(await storedBlocks(projectId));
    const keptBlocks = (await blockRows(projectId)).filter(
      (b) => b.convertedHash && kept.has(b.convertedHash),
    );
    expect(keptBlocks.length).toBeGreaterThan(0);
    expect(keptBlocks.length).toBe(kept.size);
    const keptCost = keptBlocks.reduce((sum, b) => sum + cost(b.nodes[0]?.text ?? ''), 0);
    const afterFailure = await characterCountOf(db(), owner.workspaceId);
    expect(afterFailure - before).toBe(keptCost);

    // The rerun speaks and charges only what the failed run did not keep: the book costs what it costs once.
    await run(await startConversion(projectId));
    expect(await projectRow(projectId)).toMatchObject({ state: 'default' });
    expect((await characterCountOf(db(), owner.workspaceId)) - before).toBe(
      texts.reduce((sum, text) => sum + cost(text), 0),
    );
  }, 60_000);

  it('speaks and charges identical blocks of one run once, and gives each its audio', async () => {
    const same = 'These words come twice.';
    const projectId = await makeProject([
      [same, 'Only in the first chapter.'],
      ['Only in the second.', same],
    ]);
    const payload = await startConversion(projectId);
    const before = await characterCountOf(db(), owner.workspaceId);
    const engine = vi.spyOn(t.deps.providers.tts, 'synthesize');
    await run(payload);
    expect(await projectRow(projectId)).toMatchObject({ state: 'default' });
    expect((await chapterRows(projectId)).map((c) => c.lastConversionError)).toEqual([null, null]);
    expect(engine.mock.calls.filter(([request]) => request.text === same)).toHaveLength(1);
    expect((await characterCountOf(db(), owner.workspaceId)) - before).toBe(
      cost(same) + cost('Only in the first chapter.') + cost('Only in the second.'),
    );
    const blocks = await blockRows(projectId);
    const twins = blocks.filter((b) => b.nodes[0]?.text === same);
    expect(twins).toHaveLength(2);
    expect(twins[0]?.convertedHash).toBeTruthy();
    expect(twins[1]?.convertedHash).toBe(twins[0]?.convertedHash);
    expect(new Set(await storedBlocks(projectId))).toEqual(new Set(blocks.map((b) => b.convertedHash)));
  }, 60_000);

  it('never writes a progress, nor a success, over a conversion ended meanwhile (a run that lost its job)', async () => {
    const projectId = await makeProject([['One block.']]);
    const payload = await startConversion(projectId);
    const seen: { state: string; conversionProgress: number | null }[] = [];
    await run(payload, async () => {
      const [chapter] = await chapterRows(projectId);
      if (chapter) seen.push({ state: chapter.state, conversionProgress: chapter.conversionProgress });
      // The block is spoken: the conversion is failed elsewhere (its job, exhausted, given up by another
      // worker's onExhausted) between this job progress and the chapter's progress.
      if (seen.length === 1) await abandonConversion(deps(), payload, { error: 'the lease was lost' });
    });
    expect(seen).toEqual([{ state: 'converting', conversionProgress: 0 }]);
    const [chapter] = await chapterRows(projectId);
    // The chapter's progress came after the failure: not written (it would read 0.9).
    expect(chapter).toMatchObject({ state: 'default', conversionProgress: null });
    // Nor does the run, ended by someone else, record a success over the failure the user was told of.
    expect(chapter?.lastConversionError).toBeTruthy();
    expect(await projectRow(projectId)).toMatchObject({ state: 'default', latestSnapshotId: null });
  }, 60_000);

  it('starts one of two conversions asked for at once; the other is a 409 in the API’s shape', async () => {
    const projectId = await makeProject([['Asked for twice.']]);
    const answers = await Promise.all(
      [1, 2].map(() => api(`/v1/studio/projects/${projectId}/convert`, { method: 'POST' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const refused = answers.find((a) => a.status === 409);
    expect(await refused?.json()).toEqual({
      detail: {
        status: 'conflict',
        message: 'The project is being converted; try again when the conversion has finished.',
      },
    });
    expect(queued.get(projectId)).toHaveLength(1);
  }, 60_000);

  it('never lets new content in while a conversion starts (the content is replaced before it, or refused)', async () => {
    const projectId = await makeProject([['The old words.']]);
    const form = new FormData();
    form.append(
      'from_content_json',
      JSON.stringify([
        {
          name: 'New',
          blocks: [{ sub_type: 'p', nodes: [{ type: 'tts_node', text: 'New words.', voice_id: SARAH }] }],
        },
      ]),
    );
    const [content, convert] = await Promise.all([
      api(`/v1/studio/projects/${projectId}/content`, { method: 'POST', body: form }),
      api(`/v1/studio/projects/${projectId}/convert`, { method: 'POST' }),
    ]);
    expect(convert.status).toBe(200);
    const project = await projectRow(projectId);
    const chapters = (await chapterRows(projectId)).map((c) => c.id);
    // Whichever came first, the conversion converts chapters that exist: the content did not replace them under it.
    expect(project?.convertingChapterIds.every((id) => chapters.includes(id))).toBe(true);
    if (content.status !== 200)
      expect((await content.json()) as unknown).toMatchObject({ detail: { status: 'conflict' } });
  }, 60_000);

  it('stops when its project is deleted while it speaks, and leaves no file of it in storage', async () => {
    const texts = [
      'Spoken while the project is deleted.',
      'Spoken too, perhaps.',
      'Never spoken.',
      'Nor this.',
    ];
    const projectId = await makeProject([texts]);
    const payload = await startConversion(projectId);
    const engines = t.deps.providers.tts;
    const original = engines.synthesize.bind(engines);
    let deleted = false;
    const engine = vi.spyOn(engines, 'synthesize').mockImplementation(async (request, ...rest) => {
      if (!deleted) {
        deleted = true;
        expect((await api(`/v1/studio/projects/${projectId}`, { method: 'DELETE' })).status).toBe(200);
      }
      return original(request, ...rest);
    });
    await run(payload);
    expect(deleted).toBe(true);
    expect(await projectRow(projectId)).toBeUndefined();
    expect(await t.deps.storage.list(projectFolder(owner.workspaceId, projectId))).toEqual([]);
    // It stopped: the blocks after those already under way were never spoken.
    expect(engine.mock.calls.some(([request]) => request.text === 'Nor this.')).toBe(false);
  }, 60_000);

  it('is failed, not left converting, when its job’s process died during the last attempt', async () => {
    const projectId = await makeProject([['Never spoken.']]);
    const payload = await startConversion(projectId);
    // The worker that ran the last attempt died: its lease ran out with the job still active.
    const job = { id: newId(), maxAttempts: convertJob.maxAttempts ?? 3 };
    await db().insert(jobs).values({
      id: job.id,
      name: convertJob.name,
      payload,
      workspaceId: owner.workspaceId,
      state: 'active',
      attempts: job.maxAttempts,
      maxAttempts: job.maxAttempts,
      lockToken: 'dead',
      lockedUntil: sql`now() - interval '1 second'`,
    });
    const worker = await startTestWorker(t, [convertJob]);
    try {
      await expect
        .poll(async () => (await projectRow(projectId))?.state, { timeout: 10_000, interval: 50 })
        .toBe('default');
    } finally {
      await worker.stop(5000);
    }
    expect((await db().select().from(jobs).where(eq(jobs.id, job.id)))[0]?.state).toBe('failed');
    expect(await projectRow(projectId)).toMatchObject({ convertingChapterIds: [] });
    const [chapter] = await chapterRows(projectId);
    expect(chapter).toMatchObject({
      state: 'default',
      conversionProgress: null,
      lastConversionError:
        'The conversion failed on the server. Only the blocks already spoken were charged; converting again speaks the rest.',
    });
    // Editable and convertible again.
    await run(await startConversion(projectId));
    expect(await projectRow(projectId)).toMatchObject({ state: 'default' });
  }, 60_000);
});

describe('a Studio chapter read', () => {
  it('compiles a dictionary version’s rules once, not once per rule per block per read', async () => {
    const rules = ['tomato', 'Dr.'];
    const dictionary = await owner.sdk.pronunciationDictionaries.createFromRules({
      name: 'Kitchen',
      rules: rules.map((word) => ({
        type: 'alias' as const,
        stringToReplace: word,
        alias: `${word} (said)`,
      })),
    });
    const paragraphs = Array.from({ length: 10 }, (_, i) => `Paragraph ${i} has a tomato in it.`);
    const projectId = await makeProject([paragraphs], dictionary);
    const [chapter] = await chapterRows(projectId);
    // Converted once (its hash since then is what a read compares with the block's current hash).
    await db()
      .update(studioBlocks)
      .set({ convertedHash: 'converted' })
      .where(eq(studioBlocks.projectId, projectId));
    // Every case-folding regex made while the chapter is read twice (`new RegExp(rule, 'iu')`).
    const Original = globalThis.RegExp;
    let matchers = 0;
    globalThis.RegExp = new Proxy(Original, {
      construct(target, args: [string, string?]) {
        if (args[1] === 'iu') matchers += 1;
        return Reflect.construct(target, args);
      },
    });
    try {
      for (let read = 0; read < 2; read++) {
        const response = await api(`/v1/studio/projects/${projectId}/chapters/${chapter?.id}`);
        expect(response.status).toBe(200);
      }
    } finally {
      globalThis.RegExp = Original;
    }
    // At most one per rule in all (none when another read compiled this version already).
    expect(matchers).toBeLessThanOrEqual(rules.length);
  }, 60_000);
});
