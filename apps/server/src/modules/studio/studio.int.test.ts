import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { analyzeVoice } from '@parla/audio';
import { LIVE_MODERATION_STUDIO_MESSAGE } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../platform/ids';
import type { JobWorker } from '../../platform/jobs/job-worker';
import { characterCountOf, newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { startTestWorker } from '../../test/test-worker';
import { voices } from '../voices/voices.tables';
import { deliverWebhookJob } from '../webhooks/webhooks.jobs';
import { convertJob } from './studio.jobs';
import { studioBlocks, studioProjects } from './studio.tables';

/*
 * Studio projects through the official SDK (issue 30 item 2, "Done when"): a project made from an EPUB
 * built here (two spine items → two chapters, headings → h1 blocks), read back with its metadata, converted
 * by the job (flite, the cheapest engine), its chapters and snapshots listed, streamed and archived; an
 * edited paragraph reconverted alone (the engine called once, its characters charged); and the bad input
 * that must be refused with nothing stored: corrupt EPUB and PDF, a 200 MB document, a zip bomb, a URL to
 * a private address, a live-moderation voice, the free plan's third project's successor. HTML scripts never
 * become text.
 */

let t: TestApp;
let baseUrl: string;
let worker: JobWorker;
let owner: SpeechAccount;
let receiver: http.Server;
let receiverUrl: string;
/** What the callback receiver got: body and signature header. */
const arrivals: { body: string; signature: string }[] = [];
const db = () => t.deps.database.db;

const SARAH = 'pMsXgVXv3BLzUgSXRplE';
const FLITE = 'parla_english_v1';

/** A small EPUB: container, package with two spine items (and a cover page without text), three XHTML files. */
function makeEpub(chapters: { title: string; paragraphs: string[] }[]): Buffer {
  const files: Record<string, Uint8Array> = {
    mimetype: strToU8('application/epub+zip'),
    'META-INF/container.xml': strToU8(
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    ),
    'OEBPS/cover.xhtml': strToU8('<html><body><img src="cover.png"/></body></html>'),
  };
  const items = ['<item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>'];
  const spine = ['<itemref idref="cover"/>'];
  chapters.forEach((chapter, i) => {
    files[`OEBPS/ch${i + 1}.xhtml`] = strToU8(
      `<html><head><title>x</title></head><body><h1>${chapter.title}</h1>${chapter.paragraphs.map((p) => `<p>${p}</p>`).join('')}</body></html>`,
    );
    items.push(`<item id="ch${i + 1}" href="ch${i + 1}.xhtml" media-type="application/xhtml+xml"/>`);
    spine.push(`<itemref idref="ch${i + 1}"/>`);
  });
  files['OEBPS/content.opf'] = strToU8(
    `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>The Small Book</dc:title></metadata><manifest>${items.join('')}</manifest><spine>${spine.join('')}</spine></package>`,
  );
  return Buffer.from(zipSync(files));
}

/** How long a conversion (flite, a few words) or its callback may take here, by the clock, under load. */
const WAIT_MS = 30_000;

/** The project once its conversion has ended (polled until then, WAIT_MS at most). */
function waitForConversion(account: SpeechAccount, projectId: string) {
  return vi.waitFor(
    async () => {
      const project = await account.sdk.studio.projects.get(projectId);
      if (project.state === 'converting') throw new Error('the conversion did not finish');
      return project;
    },
    { timeout: WAIT_MS, interval: 100 },
  );
}

/** The callback receiver's `n`th arrival (polled until it came, WAIT_MS at most: as long as a conversion). */
function arrival(n: number) {
  return vi.waitFor(
    () => {
      const got = arrivals[n - 1];
      if (!got) throw new Error(`no callback number ${n}`);
      return got;
    },
    { timeout: WAIT_MS, interval: 50 },
  );
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A create call as raw multipart (for what the SDK would not send: a corrupt or huge file). */
async function postProject(
  account: SpeechAccount,
  fields: Record<string, string>,
  document?: { bytes: Uint8Array | Blob; name: string },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (document)
    form.append(
      'from_document',
      document.bytes instanceof Blob ? document.bytes : new Blob([document.bytes]),
      document.name,
    );
  const response = await fetch(`${baseUrl}/v1/studio/projects`, {
    method: 'POST',
    headers: { 'xi-api-key': account.key },
    body: form,
  });
  return {
    status: response.status,
    body: (await response.json()) as { detail?: { status: string; message: string } },
  };
}

const projectCount = async (workspaceId: string) =>
  (await db().select().from(studioProjects).where(eq(studioProjects.workspaceId, workspaceId))).length;

beforeAll(async () => {
  // Any public host may be fetched; private addresses stay refused (STT_URL_ALLOW_PRIVATE unset).
  t = await createTestApp({ env: { STT_URL_ALLOWED_HOSTS: '*', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  worker = await startTestWorker(t, [convertJob, deliverWebhookJob]);
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      arrivals.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(request.headers['elevenlabs-signature'] ?? ''),
      });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/studio-callback`;
  owner = await newSpeechAccount(t.app, baseUrl);
}, 60_000);
afterAll(async () => {
  await worker.stop(20_000);
  await new Promise((resolve) => receiver.close(resolve));
  await t.close();
});

describe('Studio projects through the official SDK', () => {
  it('creates from an EPUB, converts, lists and downloads snapshots, and reconverts only the edited paragraph', async () => {
    const sdk = owner.sdk;
    const epub = makeEpub([
      { title: 'The Harbour', paragraphs: ['The boat came in at dawn.', 'Nobody was waiting.'] },
      { title: 'The Town', paragraphs: ['The streets were empty.'] },
    ]);
    // callback_url: the address of one of the workspace's webhooks, whose secret signs the notification.
    const hook = await sdk.webhooks.create({
      settings: { authType: 'hmac', name: 'Studio', webhookUrl: receiverUrl },
    });
    // A dictionary of the workspace, pinned to its first version (its rule touches no word of the book).
    const dictionary = await sdk.pronunciationDictionaries.createFromRules({
      name: 'Book',
      rules: [{ type: 'alias', stringToReplace: 'tomato', alias: 'tomahto' }],
    });
    const { project } = await sdk.studio.projects.create({
      callbackUrl: receiverUrl,
      voiceSettings: [JSON.stringify({ voice_id: SARAH, stability: 0.3, speed: 1.1 })],
      name: 'Small book',
      fromDocument: { data: epub, filename: 'small.epub', contentType: 'application/epub+zip' },
      defaultTitleVoiceId: SARAH,
      defaultParagraphVoiceId: SARAH,
      defaultModelId: FLITE,
      title: 'The Small Book',
      author: 'A. Writer',
      genres: ['fiction', 'mystery'],
      isbnNumber: '978-3-16-148410-0',
      pronunciationDictionaryLocators: [
        JSON.stringify({ pronunciation_dictionary_id: dictionary.id, version_id: dictionary.versionId }),
      ],
    });
    expect(project).toMatchObject({ name: 'Small book', state: 'default', defaultModelId: FLITE });

    const full = await sdk.studio.projects.get(project.projectId);
    // history/voices §3 defaults with what was given.
    expect(full).toMatchObject({
      title: 'The Small Book',
      author: 'A. Writer',
      isbnNumber: '978-3-16-148410-0',
      genres: ['fiction', 'mystery'],
      targetAudience: 'all ages',
      matureContent: false,
      qualityPreset: 'standard',
      description: '',
      coverImageUrl: '',
      pronunciationDictionaryLocators: [
        { pronunciationDictionaryId: dictionary.id, versionId: dictionary.versionId },
      ],
    });
    expect(full.chapters.map((c) => c.name)).toEqual(['The Harbour', 'The Town']);

    // voice_settings: each block in that voice keeps them as its own settings.
    const stored = await db()
      .select()
      .from(studioBlocks)
      .where(eq(studioBlocks.projectId, project.projectId));
    expect(stored.every((b) => b.voiceSettings?.stability === 0.3 && b.voiceSettings.speed === 1.1)).toBe(
      true,
    );

    const { chapters } = await sdk.studio.projects.chapters.list(project.projectId);
    expect(chapters).toHaveLength(2);
    const first = await sdk.studio.projects.chapters.get(project.projectId, chapters[0]?.chapterId ?? '');
    const blocks = first.content.blocks as unknown as {
      blockId: string;
      sub_type?: string;
      nodes: { text: string }[];
    }[];
    expect(blocks.map((b) => b.nodes[0]?.text)).toEqual([
      'The Harbour',
      'The boat came in at dawn.',
      'Nobody was waiting.',
    ]);

    // Convert: every block spoken once (one sentence each: one engine call per block).
    const engine = vi.spyOn(t.deps.providers.tts, 'synthesize');
    // The texts the engine was asked to speak (an engine call retried under load asks for the same text again).
    const spokenTexts = () => new Set(engine.mock.calls.map(([request]) => request.text));
    await sdk.studio.projects.convert(project.projectId);
    // The web app's live progress: server-sent events until the conversion ends, the last one `default`.
    const progress = await fetch(`${baseUrl}/v1/studio/projects/${project.projectId}/progress`, {
      headers: { 'xi-api-key': owner.key },
    });
    expect(progress.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await progress.text())
      .split('\n\n')
      .filter((e) => e.startsWith('event: progress'))
      .map(
        (e) =>
          JSON.parse(e.slice(e.indexOf('data: ') + 6)) as {
            state: string;
            latest_snapshot_id: string | null;
            chapters: { conversion_progress: number | null }[];
          },
      );
    expect(events.at(-1)).toMatchObject({
      state: 'default',
      chapters: [{ conversion_progress: 1 }, { conversion_progress: 1 }],
    });
    expect(events.at(-1)?.latest_snapshot_id).toBeTruthy();
    const converted = await waitForConversion(owner, project.projectId);
    expect(converted.state).toBe('default');
    expect(spokenTexts()).toEqual(
      new Set([
        'The Harbour',
        'The boat came in at dawn.',
        'Nobody was waiting.',
        'The Town',
        'The streets were empty.',
      ]),
    );
    expect(converted.chapters.every((c) => c.state === 'default' && c.conversionProgress === 1)).toBe(true);

    const { snapshots } = await sdk.studio.projects.snapshots.list(project.projectId);
    expect(snapshots).toHaveLength(1);
    const snapshotId = snapshots[0]?.projectSnapshotId ?? '';
    const snapshot = await sdk.studio.projects.snapshots.get(project.projectId, snapshotId);
    expect(snapshot.audioDurationSecs).toBeGreaterThan(1);
    expect(snapshot.characterAlignments[0]?.characters.join('')).toContain('Harbour');
    const audio = await readAll(
      await sdk.studio.projects.snapshots.stream(project.projectId, snapshotId, {}),
    );
    // MPEG audio: frame sync (or an ID3 tag) first.
    expect(audio[0] === 0xff || audio.subarray(0, 3).toString() === 'ID3').toBe(true);
    expect(audio.length).toBeGreaterThan(5000);
    const zip = unzipSync(
      await readAll(await sdk.studio.projects.snapshots.streamArchive(project.projectId, snapshotId)),
    );
    expect(Object.keys(zip)).toEqual(['001_The_Harbour.mp3', '002_The_Town.mp3']);
    // The stream joins the chapters' audio frames under one Info header counting them all (each chapter's
    // own ID3 tag and Info frame, which the zip keeps, would describe that chapter alone).
    const infoFrames = (mp3: Uint8Array) => {
      const bytes = Buffer.from(mp3);
      const syncsafe = [6, 7, 8, 9].reduce((n, i) => n * 128 + ((bytes[i] as number) & 0x7f), 0);
      const id3 = bytes.subarray(0, 3).toString() === 'ID3' ? 10 + syncsafe : 0;
      expect(bytes.subarray(id3 + 21, id3 + 25).toString()).toBe('Info');
      return bytes.readUInt32BE(id3 + 29);
    };
    expect(infoFrames(audio)).toBe(Object.values(zip).reduce((n, f) => n + infoFrames(f), 0));

    // The callback: the public API's body, signed like every webhook delivery.
    const projectCallback = await arrival(1);
    expect(
      await sdk.webhooks.constructEvent(
        projectCallback.body,
        projectCallback.signature,
        hook.webhookSecret ?? '',
      ),
    ).toMatchObject({
      type: 'project_conversion_status',
      data: { project_id: project.projectId, conversion_status: 'success', project_snapshot_id: snapshotId },
    });

    const chapterId = chapters[0]?.chapterId ?? '';
    const chapterSnapshots = await sdk.studio.projects.chapters.snapshots.list(project.projectId, chapterId);
    expect(chapterSnapshots.snapshots).toHaveLength(1);
    const chapterSnapshotId = chapterSnapshots.snapshots[0]?.chapterSnapshotId ?? '';
    const chapterSnapshot = await sdk.studio.projects.chapters.snapshots.get(
      project.projectId,
      chapterId,
      chapterSnapshotId,
    );
    expect(chapterSnapshot.characterAlignments[0]?.characters.length).toBeGreaterThan(10);
    const chapterAudio = await readAll(
      await sdk.studio.projects.chapters.snapshots.stream(
        project.projectId,
        chapterId,
        chapterSnapshotId,
        {},
      ),
    );
    expect(chapterAudio.equals(Buffer.from(zip['001_The_Harbour.mp3'] ?? []))).toBe(true);

    // Edit one paragraph (the others keep their block ids), reconvert the chapter: one engine call, its characters charged.
    const edited = 'Somebody was waiting after all.';
    await sdk.studio.projects.chapters.update(project.projectId, chapterId, {
      content: {
        blocks: blocks.map((b, i) => ({
          blockId: b.blockId,
          subType: i === 0 ? 'h1' : 'p',
          nodes: [
            { type: 'tts_node' as const, text: i === 2 ? edited : (b.nodes[0]?.text ?? ''), voiceId: SARAH },
          ],
        })),
      },
    });
    engine.mockClear();
    const creditsBefore = await characterCountOf(db(), owner.workspaceId);
    await sdk.studio.projects.chapters.convert(project.projectId, chapterId);
    await waitForConversion(owner, project.projectId);
    expect([...spokenTexts()]).toEqual([edited]);
    // parla_english_v1 costs half a credit per character (tts-catalog token_cost_factor 0.5).
    expect((await characterCountOf(db(), owner.workspaceId)) - creditsBefore).toBe(
      Math.ceil(edited.length * 0.5),
    );
    const again = await sdk.studio.projects.chapters.snapshots.list(project.projectId, chapterId);
    expect(again.snapshots).toHaveLength(2);
    // The project's newest snapshot is still the whole book: this chapter's new audio and the other's kept.
    const book = (await sdk.studio.projects.snapshots.list(project.projectId)).snapshots;
    expect(book).toHaveLength(2);
    const newest = book.reduce((a, b) => (b.createdAtUnix > a.createdAtUnix ? b : a));
    const whole = await sdk.studio.projects.snapshots.get(project.projectId, newest.projectSnapshotId);
    expect(whole.characterAlignments.map((a) => a.characters.join(''))).toEqual([
      expect.stringMatching(/^The Harbour/),
      expect.stringMatching(/^The Town/),
    ]);
    expect(JSON.parse((await arrival(2)).body)).toMatchObject({
      type: 'chapter_conversion_status',
      data: {
        chapter_id: chapterId,
        conversion_status: 'success',
        chapter_snapshot_id: again.snapshots[0]?.chapterSnapshotId,
      },
    });
    engine.mockRestore();
  }, 60_000);

  it('keeps headings of markdown as chapters and drops the scripts of HTML', async () => {
    const md = await postProject(
      owner,
      { name: 'Notes', default_model_id: FLITE },
      {
        bytes: Buffer.from('# One\n\nFirst words.\n\n## Part\n\nMore.\n\n# Two\n\nLast words.'),
        name: 'notes.md',
      },
    );
    expect(md.status).toBe(200);
    const id = (md.body as unknown as { project: { project_id: string } }).project.project_id;
    const chapters = await owner.sdk.studio.projects.chapters.list(id);
    expect(chapters.chapters.map((c) => c.name)).toEqual(['One', 'Two']);

    const html = await postProject(
      owner,
      { name: 'Page', default_model_id: FLITE },
      {
        bytes: Buffer.from(
          '<html><head><script>stealCookies()</script><style>p{}</style></head><body><h1>Title</h1><p>Safe text.<script>alert(1)</script></p></body></html>',
        ),
        name: 'page.html',
      },
    );
    expect(html.status).toBe(200);
    const pageId = (html.body as unknown as { project: { project_id: string } }).project.project_id;
    const rows = await db().select().from(studioBlocks).where(eq(studioBlocks.projectId, pageId));
    const text = rows.flatMap((r) => r.nodes.map((n) => n.text)).join(' ');
    expect(text).toContain('Safe text.');
    expect(text).not.toMatch(/stealCookies|alert|p\{\}/);
    await owner.sdk.studio.projects.delete(id);
    await owner.sdk.studio.projects.delete(pageId);
  });
});

describe('Studio refuses bad input, stores nothing and keeps running', () => {
  it('refuses corrupt, huge, bombed and private-address documents with the API error shape', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const cases: {
      fields?: Record<string, string>;
      document?: { bytes: Uint8Array | Blob; name: string };
      status: number;
      code: string;
      message: RegExp;
    }[] = [
      {
        document: { bytes: Buffer.from('PK\u0003\u0004 not really a zip'), name: 'broken.epub' },
        status: 400,
        code: 'document_unreadable',
        message: /damaged/,
      },
      {
        document: { bytes: Buffer.from('%PDF-1.4\n1 0 obj garbage'), name: 'broken.pdf' },
        status: 400,
        code: 'document_unreadable',
        message: /PDF/,
      },
      {
        // A zip bomb: 80 MB of zeros in one spine item, a few kilobytes packed.
        document: {
          bytes: zipSync(
            {
              'META-INF/container.xml': strToU8(
                '<container><rootfiles><rootfile full-path="a.opf"/></rootfiles></container>',
              ),
              'a.opf': strToU8(
                '<package><manifest><item id="c" href="c.xhtml"/></manifest><spine><itemref idref="c"/></spine></package>',
              ),
              'c.xhtml': new Uint8Array(80 * 1024 * 1024),
            },
            { level: 9 },
          ),
          name: 'bomb.epub',
        },
        status: 400,
        code: 'document_unreadable',
        message: /unpacks to more than/,
      },
      {
        document: { bytes: new Blob([new Uint8Array(200 * 1024 * 1024)]), name: 'huge.txt' },
        status: 413,
        code: 'payload_too_large',
        message: /larger than 50 MB/,
      },
      {
        // Text fields are held in memory: together at most 21 MB (each may be 20 MB, for from_content_json).
        fields: { padding_a: 'x'.repeat(12 * 1024 * 1024), padding_b: 'x'.repeat(12 * 1024 * 1024) },
        status: 413,
        code: 'payload_too_large',
        message: /fields are larger than 21 MB together/,
      },
      {
        fields: { from_url: 'http://127.0.0.1:1/book.html' },
        status: 400,
        code: 'url_not_allowed',
        message: /private|loopback|not allowed/i,
      },
      {
        fields: { from_content_json: '[{"name": 3}]' },
        status: 422,
        code: 'invalid_request',
        message: /from_content_json/,
      },
      {
        fields: { callback_url: 'https://example.com/hook' },
        status: 422,
        code: 'invalid_request',
        message: /webhooks/,
      },
    ];
    for (const c of cases) {
      const answer = await postProject(
        account,
        { name: 'Bad', default_model_id: FLITE, ...c.fields },
        c.document,
      );
      expect(answer.status, c.code).toBe(c.status);
      expect(answer.body.detail?.status).toBe(c.code);
      expect(answer.body.detail?.message).toMatch(c.message);
    }
    expect(await projectCount(account.workspaceId)).toBe(0);
    // Still up.
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBeLessThan(500);
  }, 60_000);

  it('refuses a live-moderation voice with the spec sentence, and the plan past its Studio limit', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    // An own voice with live moderation on (a profile from a tone: any trained voice will do).
    const samples = new Float32Array(16_000).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 150 * i) / 16_000));
    const voiceId = newId();
    await db()
      .insert(voices)
      .values({
        id: voiceId,
        workspaceId: account.workspaceId,
        name: 'Moderated',
        category: 'cloned',
        language: 'en',
        baseVoiceId: SARAH,
        profile: analyzeVoice({ sampleRate: 16_000, samples }),
        isVerified: true,
        liveModerationEnabled: true,
      });
    const moderated = await postProject(account, {
      name: 'Mod',
      default_paragraph_voice_id: voiceId,
      default_model_id: FLITE,
    });
    expect(moderated.status).toBe(400);
    expect(moderated.body.detail?.message).toBe(LIVE_MODERATION_STUDIO_MESSAGE);
    expect(await projectCount(account.workspaceId)).toBe(0);

    // accounts §9: the free plan holds 3 Studio projects.
    for (let i = 0; i < 3; i++)
      await account.sdk.studio.projects.create({ name: `P${i}`, defaultModelId: FLITE });
    const fourth = await postProject(account, { name: 'P4', default_model_id: FLITE });
    expect(fourth.status).toBe(400);
    expect(fourth.body.detail).toMatchObject({ status: 'studio_project_limit_reached' });
    expect(fourth.body.detail?.message).toMatch(/limit of 3 Studio projects/);
    expect(await projectCount(account.workspaceId)).toBe(3);
  });
});
