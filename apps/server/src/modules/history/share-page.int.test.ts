import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithApiKey } from '../../test/factories';
import { premadeVoiceId } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { historyItems } from './history.tables';

// The web app's index.html as the build writes it (title, description, the pre-paint script).
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="Parla: a self-hostable voice and audio AI platform." />
    <title>Parla</title>
    <script>document.documentElement.dataset.theme = 'light';</script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

const PUBLIC_URL = 'https://parla.example';
let t: TestApp;
beforeAll(async () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-web-'));
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
  t = await createTestApp({ env: { WEB_DIST_DIR: dist, PUBLIC_URL } });
});
afterAll(() => t.close());

/** Every `<meta property|name=… content=…>` of a page, by its property or name. */
function metaOf(html: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const match of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)" \/>/g)) {
    tags[match[1] as string] = match[2] as string;
  }
  return tags;
}

async function sharedItem(text: string) {
  return (await sharedItemOf(text)).shareId;
}

async function sharedItemOf(text: string) {
  const account = await signUpWithApiKey(t.app);
  const spoken = await t.app.inject({
    method: 'POST',
    url: `/v1/text-to-speech/${premadeVoiceId('Sarah')}`,
    headers: { 'xi-api-key': account.apiKey },
    payload: { text: 'A line to share.', model_id: 'parla_multilingual_v1' },
  });
  expect(spoken.statusCode).toBe(200);
  const id = spoken.headers['history-item-id'] as string;
  // The text as stored, with the characters a page must escape (the engines need not speak them).
  await t.deps.database.db.update(historyItems).set({ text }).where(eq(historyItems.id, id));
  const link = await t.app.inject({
    method: 'GET',
    url: `/v1/history/${id}/share-link`,
    headers: { 'xi-api-key': account.apiKey },
  });
  return {
    shareId: String(link.json().share_link).split('/').pop() as string,
    historyItemId: id,
    apiKey: account.apiKey,
  };
}

describe('the share page as the server sends it (link previews)', () => {
  it('carries Open Graph and Twitter card tags for the shared item, escaped', async () => {
    const shareId = await sharedItem('Tom & "Jerry" <script>alert(1)</script> say hello.');
    const res = await t.app.inject({ method: 'GET', url: `/share/${shareId}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.body;
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('<title>Listen to Sarah on Parla</title>');
    expect(html).toContain(
      '<meta name="description" content="Tom &amp; &quot;Jerry&quot; &lt;script&gt;alert(1)&lt;/script&gt; say hello." />',
    );
    expect(metaOf(html)).toMatchObject({
      'og:site_name': 'Parla',
      'og:type': 'music.song',
      'og:title': 'Listen to Sarah on Parla',
      'og:description': 'Tom &amp; &quot;Jerry&quot; &lt;script&gt;alert(1)&lt;/script&gt; say hello.',
      'og:url': `${PUBLIC_URL}/share/${shareId}`,
      'og:audio': `${PUBLIC_URL}/v1/shared-history/${shareId}/audio`,
      'og:audio:secure_url': `${PUBLIC_URL}/v1/shared-history/${shareId}/audio`,
      'og:audio:type': 'audio/mpeg',
      'twitter:card': 'summary',
      'twitter:title': 'Listen to Sarah on Parla',
      'twitter:description': 'Tom &amp; &quot;Jerry&quot; &lt;script&gt;alert(1)&lt;/script&gt; say hello.',
    });
    // The rest of the app's page is untouched: its root and its (CSP-hashed) inline script.
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain("<script>document.documentElement.dataset.theme = 'light';</script>");
  });

  it('cuts a long text for the preview at a word', async () => {
    const shareId = await sharedItem(`${'word '.repeat(80)}end`);
    const description = metaOf((await t.app.inject({ method: 'GET', url: `/share/${shareId}` })).body)[
      'og:description'
    ];
    expect(description?.length).toBeLessThanOrEqual(200);
    expect(description).toMatch(/^word( word)+…$/);
  });

  it('gives an unknown or deleted link the generic tags and a 404, with the app to say so', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/share/NoSuchLinkAtAll' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).toContain('<title>Shared audio · Parla</title>');
    const meta = metaOf(res.body);
    expect(meta).toMatchObject({ 'og:title': 'Shared audio · Parla', 'twitter:card': 'summary' });
    expect(meta['og:audio']).toBeUndefined();

    const { shareId, historyItemId, apiKey } = await sharedItemOf('Soon gone.');
    expect((await t.app.inject({ method: 'GET', url: `/share/${shareId}` })).statusCode).toBe(200);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/history/${historyItemId}`,
      headers: { 'xi-api-key': apiKey },
    });
    expect(deleted.statusCode).toBe(200);
    const gone = await t.app.inject({ method: 'GET', url: `/share/${shareId}` });
    expect(gone.statusCode).toBe(404);
    expect(metaOf(gone.body)['og:audio']).toBeUndefined();
  });
});
