/**
 * The `/licenses` page, rendered from THIRD_PARTY_NOTICES.txt (written by scripts/third-party-notices.mjs)
 * and Parla's LICENSE: a readable HTML page in the reader's colour scheme, every text in full.
 */

/** The line between two entries of the notices file. */
const SEPARATOR = '='.repeat(78);

/** One package of the notices: its header fields and the licence and notice texts that follow. */
export interface NoticeEntry {
  /** `Package` (npm), `Debian package`, or `Model files` (the model store's catalogue). */
  kind: 'npm' | 'debian' | 'model';
  name: string;
  fields: Record<string, string>;
  /** The texts (licence files, attribution, copyright files), as in the file. */
  body: string;
}

/** The notices file split into its preamble and its entries. */
export function parseNotices(text: string): { preamble: string; entries: NoticeEntry[] } {
  const [preamble = '', ...blocks] = text.split(`\n${SEPARATOR}\n`);
  const entries: NoticeEntry[] = [];
  for (const block of blocks) {
    const blank = block.indexOf('\n\n');
    const head = blank >= 0 ? block.slice(0, blank) : block;
    const body = blank >= 0 ? block.slice(blank + 2).trimEnd() : '';
    const fields: Record<string, string> = {};
    for (const line of head.split('\n')) {
      const colon = line.indexOf(': ');
      if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 2);
    }
    const debian = fields['Debian package'];
    const model = fields['Model files'];
    const name = debian ?? model ?? fields.Package;
    if (!name) continue;
    entries.push({ kind: debian ? 'debian' : model ? 'model' : 'npm', name, fields, body });
  }
  return { preamble: preamble.trimEnd(), entries };
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A repository link when the address is http(s); the bare text otherwise. */
function repositoryHtml(value: string | undefined): string {
  if (!value) return '';
  if (!/^https?:\/\/[^\s"'<>]+$/.test(value)) return escapeHtml(value);
  return `<a href="${escapeHtml(value)}" rel="noreferrer noopener">${escapeHtml(value)}</a>`;
}

/** A fragment id for an entry: stable and unique on the page. */
function anchorOf(entry: NoticeEntry, index: number): string {
  return `p-${index}-${entry.name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}

const STYLE = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #18181b; --muted: #52525b; --line: #e4e4e7;
  --card: #fafafa; --link: #1d4ed8; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #09090b; --fg: #f4f4f5; --muted: #a1a1aa; --line: #27272a; --card: #18181b; --link: #93c5fd; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 60rem; margin: 0 auto; padding: 2rem 1rem 4rem; }
a { color: var(--link); overflow-wrap: anywhere; }
a:focus-visible, summary:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; border-radius: 2px; }
h1 { font-size: 1.75rem; line-height: 1.2; margin: 0 0 1rem; }
h2 { font-size: 1.25rem; margin: 2.5rem 0 0.75rem; }
h3 { font-size: 1rem; margin: 0; overflow-wrap: anywhere; }
p { margin: 0.5rem 0; }
.muted { color: var(--muted); }
.attribution { border-left: 4px solid var(--link); padding: 0.5rem 1rem; background: var(--card); }
ol { list-style: none; padding: 0; margin: 0; }
li.entry { border: 1px solid var(--line); border-radius: 0.5rem; padding: 0.75rem 1rem; margin: 0.75rem 0;
  background: var(--card); }
dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.125rem 0.75rem; margin: 0.5rem 0; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
summary { cursor: pointer; color: var(--link); }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace;
  margin: 0.5rem 0 0; padding: 0.75rem; border: 1px solid var(--line); border-radius: 0.375rem; background: var(--bg); }
nav.top { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; margin-bottom: 1.5rem; }
`;

function entryHtml(entry: NoticeEntry, index: number): string {
  const f = entry.fields;
  const rows: [string, string][] = [
    ['Model', escapeHtml(f.Model ?? '')],
    ['From', escapeHtml(f.From ?? '')],
    ['Version', escapeHtml(f.Version ?? '')],
    ['Licence', escapeHtml(f.Licence ?? '')],
    ['Repository', repositoryHtml(f.Repository)],
    ['Used by', escapeHtml(f['Used by'] ?? '')],
  ];
  const title = entry.kind === 'debian' ? `${entry.name} (Debian package)` : entry.name;
  const texts = entry.body
    ? `<details><summary>Licence and notices</summary><pre>${escapeHtml(entry.body)}</pre></details>`
    : '';
  return `<li class="entry" id="${anchorOf(entry, index)}"><h3>${escapeHtml(title)}</h3><dl>${rows
    .filter(([, v]) => v)
    .map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`)
    .join('')}</dl>${texts}</li>`;
}

/** The whole `/licenses` page. */
export function renderLicencesPage(input: { notices: string; licence: string }): string {
  const { entries } = parseNotices(input.notices);
  const attributions = entries.flatMap((e) =>
    [...e.body.matchAll(/^This product includes .+$/gm)].map((m) => m[0]),
  );
  const npm = entries.filter((e) => e.kind === 'npm');
  const debian = entries.filter((e) => e.kind === 'debian');
  const models = entries.filter((e) => e.kind === 'model');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Licences · Parla</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<style>${STYLE}</style>
</head>
<body>
<main>
<nav class="top" aria-label="Licences"><a href="/">Back to Parla</a><a href="/licenses.txt">Plain text</a></nav>
<h1>Licences</h1>
<p>Parla is free software, licensed under the GNU Affero General Public License, version 3 or (at your
option) any later version (AGPL-3.0-or-later).</p>
<details><summary>GNU Affero General Public License, version 3 — full text</summary><pre>${escapeHtml(
    input.licence.trimEnd(),
  )}</pre></details>
${
  attributions.length > 0
    ? `<h2>Attribution</h2>${attributions.map((a) => `<p class="attribution">${escapeHtml(a)}</p>`).join('')}`
    : ''
}
<h2>Third-party software</h2>
<p class="muted">Parla ships ${npm.length} npm packages (in the server and the web app) and runs ${
    debian.length
  } Debian packages, each under its own licence. This list is generated from the installed packages.</p>
<h2 id="npm">npm packages</h2>
<ol>${npm.map((e) => entryHtml(e, entries.indexOf(e))).join('\n')}</ol>
<h2 id="models">Model files</h2>
<p class="muted">The trained models Parla uses (${models.length}), fetched from registry packages into its models folder
and checked by SHA-256, each with its licence and attribution.</p>
<ol>${models.map((e) => entryHtml(e, entries.indexOf(e))).join('\n')}</ol>
<h2 id="debian">Debian packages</h2>
<p class="muted">Installed from Debian on the server (not redistributed with Parla).</p>
<ol>${debian.map((e) => entryHtml(e, entries.indexOf(e))).join('\n')}</ol>
</main>
</body>
</html>
`;
}
