import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
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
].join('\n');

describe('parseNotices', () => {
  it('splits the file into its entries, with their fields and texts', () => {
    const { preamble, entries } = parseNotices(notices);
    expect(preamble).toMatch(/^PARLA — THIRD-PARTY NOTICES/);
    expect(entries.map((e) => [e.kind, e.name])).toEqual([
      ['npm', 'fast-geoip'],
      ['npm', 'odd-repo'],
      ['debian', 'ffmpeg'],
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
});

describe('escapeHtml', () => {
  it('escapes the five characters that matter', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
