import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { KB_MAX_FILE_BYTES } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyDocx, tinyEpub, tinyPdf } from '../../test/document-fixtures';
import { callAs, newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { knowledgeBaseDepsOf, searchKnowledge, setAgentDocuments } from '.';

/*
 * The knowledge base (issue 28 item 3) through the real app with the official client: documents from text,
 * files (PDF, DOCX, EPUB, markdown, made in the test) and a page served on 127.0.0.1 (the host is in
 * KB_URL_PRIVATE_HOSTS, so the test reaches its own server; `localhost` and other private addresses stay
 * refused); the list, content, chunks, RAG index calls; bad input; and the front door's ranking.
 */

let t: TestApp;
let baseUrl: string;
let pages: http.Server;
let pagesUrl: string;
let a: SpeechAccount;
let b: SpeechAccount;

const HOURS_PAGE = `<!doctype html><html><head><title>Corner Bakery — Visit us</title></head><body>
<nav>Home · Menu · Contact</nav><h1>Visit us</h1>
<p>Our opening hours are Monday to Friday 7am to 6pm, and Saturday 8am to 2pm. We are closed on Sundays.</p>
<script>track()</script></body></html>`;

beforeAll(async () => {
  pages = http.createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/hours') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(HOURS_PAGE);
    } else if (path === '/big') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('x '.repeat(3 * 1024 * 1024));
    } else if (path === '/image') {
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    } else if (path === '/to-localhost') {
      const port = (pages.address() as AddressInfo).port;
      response.writeHead(302, { location: `http://localhost:${port}/hours` });
      response.end();
    } else if (path === '/slow') {
      // Never answers: the fetch's time limit ends it.
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  t = await createTestApp({ env: { KB_URL_PRIVATE_HOSTS: '127.0.0.1', KB_URL_TIMEOUT_MS: '1000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  a = await newSpeechAccount(t.app, baseUrl);
  b = await newSpeechAccount(t.app, baseUrl);
}, 60_000);

afterAll(async () => {
  await t.close();
  pages.closeAllConnections();
  await new Promise((resolve) => pages.close(resolve));
});

/** The status and `detail` of a call the SDK refused. */
async function refusal(
  promise: Promise<unknown>,
): Promise<{ status: number; detail: { status: string; message: string } }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ElevenLabsError)
      return {
        status: error.statusCode ?? 0,
        detail: (error.body as { detail: { status: string; message: string } }).detail,
      };
    throw error;
  }
  throw new Error('the call succeeded');
}

async function upload(account: SpeechAccount, bytes: Buffer, filename: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), filename);
  const response = await fetch(`${baseUrl}/v1/convai/knowledge-base/file`, {
    method: 'POST',
    headers: { 'xi-api-key': account.key },
    body: form,
  });
  return {
    status: response.status,
    body: (await response.json()) as { detail: { status: string; message: string } },
  };
}

describe('knowledge base with the official client', () => {
  it('adds a text document, gets, lists, reads its content and chunks, renames and deletes it', async () => {
    const kb = a.sdk.conversationalAi.knowledgeBase;
    const text = Array.from(
      { length: 30 },
      (_, i) => `Paragraph ${i}: the refund policy covers item ${i} for thirty days after purchase.`,
    ).join('\n\n');
    const added = await kb.documents.createFromText({ text, name: 'Refunds' });
    expect(added).toMatchObject({ name: 'Refunds' });
    const got = await kb.documents.get(added.id);
    expect(got).toMatchObject({ id: added.id, name: 'Refunds', type: 'text' });
    expect(got.type === 'text' && got.extractedInnerHtml).toContain('<p>Paragraph 0: the refund policy');
    expect(got.metadata.sizeBytes).toBe(Buffer.byteLength(text));
    expect(got.accessInfo).toMatchObject({ isCreator: true, role: 'admin' });

    const content = await kb.documents.getContent(added.id);
    expect(content).toContain('<p>Paragraph 29: the refund policy covers item 29');

    const chunks = await kb.documents.chunks.list(added.id, {
      embeddingModel: 'e5_mistral_7b_instruct',
      pageSize: 2,
    });
    expect(chunks.chunks).toHaveLength(2);
    expect(chunks.nextCursor).toBeTruthy();
    for (const chunk of chunks.chunks) expect(chunk.content.length).toBeLessThanOrEqual(1200);
    const rest = await kb.documents.chunks.list(added.id, {
      embeddingModel: 'e5_mistral_7b_instruct',
      cursor: chunks.nextCursor ?? '',
    });
    expect(rest.chunks.at(-1)?.content).toContain('Paragraph 29');
    const first = chunks.chunks[0];
    const one = await kb.documents.chunk.get(added.id, first?.id ?? '');
    expect(one).toEqual(first);

    const listed = await kb.list({ search: 'refu' });
    expect(listed.documents.map((d) => d.id)).toEqual([added.id]);
    expect(listed.documents[0]).toMatchObject({ type: 'text', dependentAgents: [] });

    const renamed = await kb.documents.update(added.id, { name: 'Refund policy' });
    expect(renamed.name).toBe('Refund policy');
    const index = await kb.document.computeRagIndex(added.id, { model: 'e5_mistral_7b_instruct' });
    expect(index).toMatchObject({ status: 'succeeded', progressPercentage: 100 });
    expect((index as unknown as { embeddings: string }).embeddings).toBe('not_configured');

    await kb.documents.delete(added.id);
    expect((await refusal(kb.documents.get(added.id))).status).toBe(404);
  });

  it('adds PDF, DOCX, EPUB and markdown files and reads their text', async () => {
    const kb = a.sdk.conversationalAi.knowledgeBase.documents;
    const pdf = await kb.createFromFile({
      file: new File([tinyPdf(['Warranty: two years on all bicycles.'])], 'warranty.pdf'),
    });
    expect(pdf.name).toBe('warranty.pdf');
    expect(await kb.getContent(pdf.id)).toContain('Warranty: two years on all bicycles.');
    const docx = await kb.createFromFile({
      file: new File([tinyDocx([{ heading: 'Parking' }, 'Free parking behind the shop.'])], 'parking.docx'),
      name: 'Parking',
    });
    expect(await kb.getContent(docx.id)).toBe('<h1>Parking</h1><p>Free parking behind the shop.</p>');
    const got = await kb.get(docx.id);
    expect(got).toMatchObject({ type: 'file', filename: 'parking.docx', name: 'Parking' });
    const epub = await kb.createFromFile({
      file: new File([tinyEpub(['<p>Chapter one: the bakery opened in 1921.</p>'])], 'history.epub'),
    });
    expect(await kb.getContent(epub.id)).toBe('<p>Chapter one: the bakery opened in 1921.</p>');
    const md = await kb.createFromFile({
      file: new File(['# Allergens\n\nAll bread contains **gluten**.'], 'allergens.md'),
    });
    expect((await kb.get(md.id)) as { contentFormat?: string }).toMatchObject({ contentFormat: 'markdown' });

    const files = await a.sdk.conversationalAi.knowledgeBase.list({ types: ['file'], pageSize: 100 });
    expect(files.documents.map((d) => d.name).sort()).toEqual(
      ['Parking', 'allergens.md', 'history.epub', 'warranty.pdf'].sort(),
    );
  });

  it('adds a page by URL from an allowed host, named by its title, without its scripts or navigation', async () => {
    const kb = a.sdk.conversationalAi.knowledgeBase.documents;
    const page = await kb.createFromUrl({ url: `${pagesUrl}/hours` });
    expect(page.name).toBe('Corner Bakery — Visit us');
    const got = await kb.get(page.id);
    expect(got).toMatchObject({ type: 'url', url: `${pagesUrl}/hours` });
    const content = await kb.getContent(page.id);
    expect(content).toContain('<h1>Visit us</h1><p>Our opening hours are Monday to Friday');
    expect(content).not.toContain('track()');
    expect(content).not.toContain('Contact');
  });

  it('refuses bad files with the API’s error and keeps nothing', async () => {
    const before = (await a.sdk.conversationalAi.knowledgeBase.list({ pageSize: 100 })).documents.length;
    const wrongType = await upload(a, Buffer.from('a,b\n1,2'), 'sheet.xlsx');
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.detail.message).toMatch(/pdf, docx, txt, html, md, epub/);
    const corrupt = await upload(a, Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog'), 'broken.pdf');
    expect(corrupt).toMatchObject({ status: 400, body: { detail: { status: 'document_unreadable' } } });
    const notDocx = await upload(a, Buffer.from('just text'), 'letter.docx');
    expect(notDocx.body.detail).toMatchObject({
      status: 'document_unreadable',
      message: expect.stringMatching(/zip/),
    });
    const huge = await upload(a, Buffer.alloc(KB_MAX_FILE_BYTES + 1024, 0x61), 'huge.txt');
    expect(huge.status).toBe(413);
    const empty = await callAs(t.app, a, 'POST', '/v1/convai/knowledge-base/text', { text: '' });
    expect(empty.statusCode).toBe(422);
    expect((await a.sdk.conversationalAi.knowledgeBase.list({ pageSize: 100 })).documents).toHaveLength(
      before,
    );
  }, 60_000);

  it('refuses private addresses, and pages too large, too slow or not text', async () => {
    const kb = a.sdk.conversationalAi.knowledgeBase.documents;
    const port = (pages.address() as AddressInfo).port;
    for (const url of [
      `http://localhost:${port}/hours`,
      'http://10.1.2.3/',
      'http://[::1]/',
      'http://169.254.169.254/latest/meta-data',
      `${pagesUrl}/to-localhost`,
    ]) {
      const refused = await refusal(kb.createFromUrl({ url }));
      expect(refused, url).toMatchObject({ status: 400, detail: { status: 'url_not_allowed' } });
      expect(refused.detail.message, url).toMatch(/private, loopback or reserved address/);
    }
    expect((await refusal(kb.createFromUrl({ url: 'file:///etc/passwd' }))).detail.message).toMatch(
      /Only http and https/,
    );
    expect((await refusal(kb.createFromUrl({ url: `${pagesUrl}/big` }))).detail).toMatchObject({
      status: 'url_fetch_failed',
      message: 'The page is larger than 5 MB.',
    });
    expect((await refusal(kb.createFromUrl({ url: `${pagesUrl}/slow` }))).detail.message).toMatch(
      /longer than 1 s/,
    );
    expect((await refusal(kb.createFromUrl({ url: `${pagesUrl}/image` }))).status).toBe(415);
  });

  it('answers another workspace’s document as not found', async () => {
    const mine = await a.sdk.conversationalAi.knowledgeBase.documents.createFromText({
      text: 'Secret recipe.',
    });
    const other = b.sdk.conversationalAi.knowledgeBase;
    expect((await refusal(other.documents.get(mine.id))).status).toBe(404);
    expect((await refusal(other.documents.delete(mine.id))).status).toBe(404);
    expect((await refusal(other.documents.getContent(mine.id))).status).toBe(404);
    expect((await other.list()).documents).toEqual([]);
    expect(
      await searchKnowledge(knowledgeBaseDepsOf(t.deps), b.workspaceId, [mine.id], 'secret recipe'),
    ).toEqual([]);
    expect((await a.sdk.conversationalAi.knowledgeBase.documents.get(mine.id)).name).toBe('Secret recipe.');
  });

  it('refuses to delete a document an agent uses unless forced', async () => {
    const kb = a.sdk.conversationalAi.knowledgeBase;
    const doc = await kb.documents.createFromText({
      text: 'Delivery is free over 30 euros.',
      name: 'Delivery',
    });
    const deps = knowledgeBaseDepsOf(t.deps);
    await setAgentDocuments(deps, a.workspaceId, { id: 'agent_test_1', name: 'Shop assistant' }, [doc.id]);
    const listed = await kb.list({ search: 'Delivery' });
    expect(listed.documents[0]?.dependentAgents).toMatchObject([
      { id: 'agent_test_1', name: 'Shop assistant' },
    ]);
    const refused = await refusal(kb.documents.delete(doc.id));
    expect(refused).toMatchObject({ status: 409, detail: { status: 'conflict' } });
    expect(refused.detail.message).toContain('“Shop assistant”');
    await kb.documents.delete(doc.id, { force: true });
    expect((await refusal(kb.documents.get(doc.id))).status).toBe(404);
    await expect(
      setAgentDocuments(deps, a.workspaceId, { id: 'agent_test_1', name: 'x' }, [doc.id]),
    ).rejects.toMatchObject({
      code: 'resource_not_found',
    });
  });
});

describe('retrieval (searchKnowledge, the front door a conversation turn uses)', () => {
  let ids: Record<string, string>;
  let account: SpeechAccount;
  beforeAll(async () => {
    account = await newSpeechAccount(t.app, baseUrl);
    const kb = account.sdk.conversationalAi.knowledgeBase.documents;
    const corpus: Record<string, string> = {
      hours:
        'Opening hours\n\nThe shop is open Monday to Friday from 9am to 6pm and on Saturday from 10am to 4pm. ' +
        'On Sundays and public holidays we are closed.',
      returns:
        'Returns\n\nYou can return any item within 30 days with its receipt. Opened software cannot be returned. ' +
        'Refunds go back to the card you paid with within five working days.',
      delivery:
        'Delivery\n\nWe deliver within the city on weekdays. Delivery is free for orders over 50 euros; ' +
        'below that it costs 5 euros. The shop opens its delivery desk at 8am.',
      staff:
        'Our team\n\nAnna has worked in the shop since 2010 and knows every bicycle brand we sell. ' +
        'Ben looks after the workshop and repairs bicycles.',
    };
    ids = {};
    for (const [key, text] of Object.entries(corpus))
      ids[key] = (await kb.createFromText({ text, name: key })).id;
    // Another workspace's passage about opening hours must never come back.
    await a.sdk.conversationalAi.knowledgeBase.documents.createFromText({
      text: 'Opening hours: always open.',
    });
    Object.assign(ids, { workspace: account.workspaceId });
  });

  const ask = (query: string, limit = 3) =>
    searchKnowledge(knowledgeBaseDepsOf(t.deps), ids.workspace as string, Object.values(ids), query, limit);

  it('finds the passage for a conversational question', async () => {
    const [best, ...others] = await ask('what are your opening hours?');
    expect(best).toMatchObject({ document_id: ids.hours, document_name: 'hours' });
    expect(best?.text).toContain('Monday to Friday from 9am to 6pm');
    for (const other of others) expect(other.score).toBeLessThan(best?.score ?? 0);
  });

  it('falls back to any word when no passage holds them all', async () => {
    // "weekend" is in no passage: the strict reading finds nothing, the any-word reading still answers.
    const [best] = await ask('are you closed at the weekend on sundays?');
    expect(best?.document_id).toBe(ids.hours);
    const [refund] = await ask('how long until I get my money refunded?');
    expect(refund?.document_id).toBe(ids.returns);
    const [fee] = await ask('Is delivery free?');
    expect(fee?.document_id).toBe(ids.delivery);
  });

  it('ranks a passage with the rarer words above one with a common word', async () => {
    // "open" is in two passages (hours, delivery), "repair" in one: the workshop passage wins, although
    // each holds one of the two words.
    const [best, second] = await ask('can you repair it, or are you open?');
    expect(best?.document_id).toBe(ids.staff);
    expect(second?.document_id).toBe(ids.hours);
  });

  it('answers nothing for words it does not have, only stop words, or no documents', async () => {
    expect(await ask('quantum chromodynamics')).toEqual([]);
    expect(await ask('what is it?')).toEqual([]);
    expect(
      await searchKnowledge(knowledgeBaseDepsOf(t.deps), ids.workspace as string, [], 'opening hours'),
    ).toEqual([]);
  });

  it('searches through the API with highlighted snippets', async () => {
    const found = await account.sdk.conversationalAi.knowledgeBase.search({
      query: 'when are you open?',
      pageSize: 2,
    });
    expect(found.results).toHaveLength(2);
    expect(found.nextCursor).toBeTruthy();
    const [best] = found.results;
    expect(best?.document).toMatchObject({ id: ids.hours, type: 'text' });
    expect(best?.searchSnippet?.filter((s) => s.isHit).map((s) => s.value.toLowerCase())).toContain('open');
    expect(best?.searchSnippet?.map((s) => s.value).join('')).toContain('The shop is open Monday to Friday');
    const rest = await account.sdk.conversationalAi.knowledgeBase.search({
      query: 'when are you open?',
      cursor: found.nextCursor ?? '',
    });
    expect(rest.results.map((r) => r.document.id)).not.toContain(ids.hours);
    // The other workspace's "always open" page is not among them.
    expect([...found.results, ...rest.results].every((r) => Object.values(ids).includes(r.document.id))).toBe(
      true,
    );
  });
});
