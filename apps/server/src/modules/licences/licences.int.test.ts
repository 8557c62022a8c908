import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('/licenses', () => {
  it("serves Parla's licence and every third-party notice as a page, to anyone", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/licenses', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.body;
    expect(html).toContain('AGPL-3.0-or-later');
    expect(html).toContain('GNU AFFERO GENERAL PUBLIC LICENSE');
    expect(html).toContain(
      'This product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com',
    );
    // The GPL-3.0 engine build and a Debian runtime package, with their licences.
    expect(html).toMatch(
      /<h3>@echogarden\/espeak-ng-emscripten<\/h3><dl><dt>Version<\/dt><dd>[\d.]+<\/dd><dt>Licence<\/dt><dd>GPL-3.0<\/dd>/,
    );
    expect(html).toContain('<h3>ffmpeg (Debian package)</h3>');
    // The page's CSP allows its inline style and nothing else runs on it.
    expect(res.headers['content-security-policy']).toMatch(/style-src [^;]*'unsafe-inline'/);
    expect(html).not.toContain('<script');
  });

  it('serves the notices file and the licence as plain text, byte for byte', async () => {
    const txt = await t.app.inject({ method: 'GET', url: '/licenses.txt' });
    expect(txt.statusCode).toBe(200);
    expect(txt.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(txt.body).toBe(fs.readFileSync(path.join(root, 'THIRD_PARTY_NOTICES.txt'), 'utf8'));
    const agpl = await t.app.inject({ method: 'GET', url: '/licenses/agpl-3.0.txt' });
    expect(agpl.statusCode).toBe(200);
    expect(agpl.body).toBe(fs.readFileSync(path.join(root, 'LICENSE'), 'utf8'));
  });

  it('answers an unknown path under /licenses/ with the API error shape, never the web app', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/licenses/nothing-here',
      headers: { accept: 'text/html' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ detail: { status: expect.any(String), message: expect.any(String) } });
  });
});
