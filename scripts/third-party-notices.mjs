// Writes THIRD_PARTY_NOTICES.txt: every npm package that ships with Parla — the production dependency
// closure of the server and of the web bundle, read from package-lock.json and the installed
// node_modules — and the Debian packages the server runs (RUNTIME_PACKAGES of
// scripts/install-system-deps.sh), each with its version, licence, repository and the licence and notice
// texts the package carries. The server serves the file at /licenses and /licenses.txt.
//
//   npx tsx scripts/third-party-notices.mjs           regenerate the committed file
//   npx tsx scripts/third-party-notices.mjs --check   fail when the committed file is stale, or when a
//                                                     package declares no licence (run by `npm run lint`)
//
// It runs under tsx because the model files' licences come from the model store's catalogue, a
// TypeScript module (apps/server/src/platform/models/model-catalogue.ts), the one list of every model file.
//
// The file is committed so a licence change shows in review. Debian package versions follow the
// machine's security updates, so --check compares Debian packages by name and licence and only warns
// when their versions differ; npm packages are compared exactly (the lockfile fixes them).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODEL_CATALOGUE } from '../apps/server/src/platform/models/model-catalogue.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const NOTICES_FILE = path.join(root, 'THIRD_PARTY_NOTICES.txt');
export const SEPARATOR = '='.repeat(78);

/**
 * Build tools whose own code lands in the web bundle although they are devDependencies: Tailwind's
 * preflight CSS and Vite's module-preload helper.
 */
const WEB_BUNDLED_BUILD_PACKAGES = ['tailwindcss', 'vite'];

/** Data inside a package that carries its own licence and attribution. */
const EMBEDDED_DATA = {
  'fast-geoip': {
    title: 'GeoLite2 data (in the fast-geoip package)',
    licence: 'CC-BY-SA-4.0',
    text: [
      'This product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com',
      '',
      'The GeoLite2 databases are distributed under the Creative Commons Attribution-ShareAlike 4.0',
      'International License: https://creativecommons.org/licenses/by-sa/4.0/',
    ].join('\n'),
  },
  'wasm-media-encoders': {
    title: 'LAME MP3 encoder (compiled to WebAssembly in wasm/mp3.wasm)',
    licence: 'LGPL-2.0-or-later',
    text: [
      'The MP3 encoder inside this package is LAME (https://lame.sourceforge.io), copyright its authors,',
      'under the GNU Library General Public License version 2 or later:',
      'https://www.gnu.org/licenses/old-licenses/lgpl-2.0.html. Its source and the build that makes the',
      'WebAssembly module are in https://github.com/arseneyr/wasm-media-encoders; the module is loaded',
      'from the package at run time, so it can be replaced by another build of the same interface.',
    ].join('\n'),
  },
};

const LICENCE_FILE = /^(licen[cs]e|copying|notice|copyright|authors)([.-].*)?$/i;

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The package directory that `name` resolves to from the package at `from` (lockfile keys). */
function resolveDependency(lockPackages, from, name) {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (lockPackages[candidate]) return candidate;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut >= 0 ? dir.slice(0, cut) : '';
  }
}

/** The lockfile keys of every installed package that `starts` needs at run time, transitively. */
function productionClosure(lockPackages, starts) {
  const seen = new Set();
  const queue = [...starts];
  while (queue.length > 0) {
    let key = queue.shift();
    const entry = lockPackages[key];
    // The lockfile also lists the optional packages of other platforms, which are not installed here.
    if (!entry || !existsSync(path.join(root, entry.link ? entry.resolved : key, 'package.json'))) continue;
    if (entry.link) key = entry.resolved;
    if (seen.has(key)) continue;
    seen.add(key);
    const meta = lockPackages[key] ?? {};
    const names = [
      ...Object.keys(meta.dependencies ?? {}),
      ...Object.keys(meta.optionalDependencies ?? {}),
      ...Object.keys(meta.peerDependencies ?? {}),
    ];
    for (const name of names) {
      const target = resolveDependency(lockPackages, key, name);
      // An optional or peer dependency for another platform is not installed: nothing ships.
      if (target) queue.push(target);
    }
  }
  return [...seen].filter((key) => key.includes('node_modules/'));
}

function licenceOf(pkg) {
  if (typeof pkg.license === 'string') return pkg.license;
  if (pkg.license?.type) return pkg.license.type;
  if (Array.isArray(pkg.licenses)) {
    const types = pkg.licenses.map((l) => (typeof l === 'string' ? l : l.type)).filter(Boolean);
    if (types.length > 0) return types.length > 1 ? `(${types.join(' OR ')})` : types[0];
  }
  return undefined;
}

function repositoryOf(pkg) {
  const raw = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  if (!raw) return typeof pkg.homepage === 'string' ? pkg.homepage : undefined;
  const shorthand = raw.match(/^(?:github:)?([\w.-]+\/[\w.-]+)$/);
  if (shorthand) return `https://github.com/${shorthand[1]}`;
  return raw
    .replace(/^git\+/, '')
    .replace(/^git:\/\//, 'https://')
    .replace(/^ssh:\/\/git@/, 'https://')
    .replace(/^git@([^:]+):/, 'https://$1/')
    .replace(/\.git$/, '');
}

function licenceTexts(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((f) => f.isFile() && LICENCE_FILE.test(f.name))
    .map((f) => f.name)
    .sort()
    .map((name) => ({
      name,
      text: readFileSync(path.join(dir, name), 'utf8').replace(/\r\n?/g, '\n').trimEnd(),
    }));
}

/** The npm packages that ship, each with the parts of Parla that use it. */
export function collectNpmPackages() {
  const lock = readJson(path.join(root, 'package-lock.json'));
  const lockPackages = lock.packages;
  const parts = [
    ['server', productionClosure(lockPackages, ['apps/server'])],
    [
      'web',
      productionClosure(lockPackages, [
        'apps/web',
        ...WEB_BUNDLED_BUILD_PACKAGES.map((name) => resolveDependency(lockPackages, 'apps/web', name)),
      ]),
    ],
  ];
  const byKey = new Map();
  for (const [part, keys] of parts) {
    for (const key of keys) {
      const usedBy = byKey.get(key) ?? [];
      usedBy.push(part);
      byKey.set(key, usedBy);
    }
  }
  const packages = [];
  for (const [key, usedBy] of byKey) {
    const dir = path.join(root, key);
    const pkg = readJson(path.join(dir, 'package.json'));
    packages.push({
      name: pkg.name,
      version: pkg.version,
      licence: licenceOf(pkg),
      repository: repositoryOf(pkg),
      usedBy,
      texts: licenceTexts(dir),
      embedded: EMBEDDED_DATA[pkg.name],
    });
  }
  const seen = new Set();
  return packages
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version))
    .filter((p) => {
      const id = `${p.name}@${p.version}`;
      if (seen.has(id)) return false; // the same version installed twice ships the same text
      seen.add(id);
      return true;
    });
}

/** How the server uses a Debian package, where it is more than running it. */
const DEBIAN_USE_DEFAULT =
  'server (installed from Debian by scripts/install-system-deps.sh, not redistributed)';
const DEBIAN_USE = {
  'fonts-dejavu-core':
    "server (installed from Debian by scripts/install-system-deps.sh); the PDF transcript exports embed subsets of DejaVu Sans and DejaVu Sans Bold, each with the font's copyright and licence (its name table)",
};

/** RUNTIME_PACKAGES of install-system-deps.sh: the one list of what the server runs from Debian. */
function runtimeDebianPackages() {
  const script = readFileSync(path.join(root, 'scripts/install-system-deps.sh'), 'utf8');
  const match = script.match(/^RUNTIME_PACKAGES=\(([^)]*)\)/m);
  if (!match) throw new Error('RUNTIME_PACKAGES not found in scripts/install-system-deps.sh');
  return match[1].split(/\s+/).filter(Boolean);
}

/** Installed versions from dpkg's database (a plain file: no process to start). */
function installedDebianVersions() {
  let status = '';
  try {
    status = readFileSync('/var/lib/dpkg/status', 'utf8');
  } catch {
    return new Map();
  }
  const versions = new Map();
  for (const stanza of status.split(/\n\n+/)) {
    const name = stanza.match(/^Package: (.+)$/m)?.[1];
    const version = stanza.match(/^Version: (.+)$/m)?.[1];
    const installed = /^Status: .* installed$/m.test(stanza);
    if (name && version && installed) versions.set(name, version);
  }
  return versions;
}

/** The licences a machine-readable Debian copyright file names (its `License:` fields), in order. */
function debianLicences(copyright) {
  const names = [];
  for (const match of copyright.matchAll(/^License: *(.+)$/gm)) {
    const name = match[1].trim();
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

export function collectDebianPackages() {
  const versions = installedDebianVersions();
  return runtimeDebianPackages().map((name) => {
    const copyrightFile = `/usr/share/doc/${name}/copyright`;
    let copyright;
    try {
      copyright = readFileSync(copyrightFile, 'utf8');
    } catch {
      copyright = undefined;
    }
    // A machine-readable copyright file (DEP-5) names its licences; a free-form one is copied whole.
    const machineReadable = copyright?.startsWith('Format:') ?? false;
    return {
      name,
      version: versions.get(name),
      licences: machineReadable && copyright ? debianLicences(copyright) : [],
      upstream:
        copyright?.match(/^Source: *(\S+)/m)?.[1] ??
        copyright?.match(/(?:downloaded from|sources from):?\s*<?(https?:\/\/[^\s>]+)/i)?.[1],
      copyrightFile,
      freeFormText: !machineReadable && copyright ? copyright.replace(/\r\n?/g, '\n').trimEnd() : undefined,
    };
  });
}

/** Where the model store's full licence texts are (Apache-2.0). */
const MODEL_LICENCES_DIR = path.join(root, 'apps/server/src/platform/models/licences');

const REGISTRY_NAMES = { npm: 'npm', pypi: 'PyPI', deb: 'Debian' };

/**
 * The model files of the model store's catalogue (fetched from registry packages into MODELS_DIR, not
 * installed as packages, so not found in node_modules): each model with where its files come from, its
 * licence, its attribution and the licence texts.
 */
export function collectModels() {
  return MODEL_CATALOGUE.map((model) => {
    const sources = [];
    for (const file of model.files)
      for (const piece of file.from) {
        const { kind, name, version } = piece.package;
        const source = `${REGISTRY_NAMES[kind]} ${name} ${version}`;
        if (!sources.includes(source)) sources.push(source);
      }
    return {
      id: model.id,
      name: model.name,
      feature: model.feature,
      upstream: model.upstream,
      files: model.files.length,
      sources,
      licence: model.licence.spdx,
      attribution: model.licence.attribution,
      texts: model.licence.texts.map((text) => ({ title: text.licence, body: licenceText(text) })),
    };
  });
}

const CC0_TEXT = `CC0 1.0 Universal (public domain dedication): the person who associated a work with this deed
has dedicated it to the public domain by waiving all of their rights to the work worldwide under
copyright law, including all related and neighbouring rights, to the extent allowed by law. You can
copy, modify, distribute and perform the work, even for commercial purposes, all without asking
permission. The full legal code: https://creativecommons.org/publicdomain/zero/1.0/legalcode`;

function licenceText(text) {
  if (text.licence === 'MIT') return MIT_TEXT.replace('<COPYRIGHT>', text.copyright);
  if (text.licence === 'CC0-1.0') return CC0_TEXT;
  return readFileSync(path.join(MODEL_LICENCES_DIR, `${text.licence}.txt`), 'utf8')
    .replace(/\r\n?/g, '\n')
    .trimEnd();
}

const MIT_TEXT = `<COPYRIGHT>

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction, including
without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the
following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial
portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT
LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO
EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER
IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE
USE OR OTHER DEALINGS IN THE SOFTWARE.`;

export function renderNotices(npmPackages, debianPackages, models = collectModels()) {
  const out = [];
  const line = (s = '') => out.push(s);
  line('PARLA — THIRD-PARTY NOTICES');
  line();
  line('Parla is licensed under the GNU Affero General Public License, version 3 or (at your option)');
  line('any later version (AGPL-3.0-or-later); its full text is in the LICENSE file and at /licenses.');
  line('Parla ships or runs the third-party software below, each under its own licence.');
  line('This file is generated by scripts/third-party-notices.mjs from the installed packages;');
  line('do not edit it by hand.');
  line();
  line('Attribution:');
  for (const p of npmPackages) if (p.embedded) line(p.embedded.text.split('\n')[0]);
  line();
  line(`npm packages: ${npmPackages.length} (server and web bundle)`);
  line(`Debian packages run by the server: ${debianPackages.length}`);
  line(`Models fetched from npm, PyPI and Debian packages (the model store): ${models.length}`);
  for (const p of npmPackages) {
    line();
    line(SEPARATOR);
    line(`Package: ${p.name}`);
    line(`Version: ${p.version}`);
    line(`Licence: ${p.licence ?? 'UNKNOWN'}`);
    line(`Repository: ${p.repository ?? '(none given)'}`);
    line(`Used by: ${p.usedBy.join(', ')}`);
    if (p.embedded) {
      line();
      line(`--- ${p.embedded.title}: ${p.embedded.licence}`);
      line(p.embedded.text);
    }
    if (p.texts.length === 0) {
      line();
      line(`The package ships no licence file; its package.json declares ${p.licence ?? 'no licence'}.`);
    }
    for (const t of p.texts) {
      line();
      line(`--- ${t.name}`);
      line(t.text);
    }
  }
  for (const m of models) {
    line();
    line(SEPARATOR);
    line(`Model files: ${m.name}`);
    line(`Model: ${m.id} (${m.files} ${m.files === 1 ? 'file' : 'files'} under MODELS_DIR)`);
    line(`From: ${m.sources.join(', ')}`);
    line(`Licence: ${m.licence}`);
    line(`Repository: ${m.upstream}`);
    line(`Used by: ${m.feature}`);
    line();
    line('--- Attribution');
    line(m.attribution);
    for (const t of m.texts) {
      line();
      line(`--- ${t.title}`);
      line(t.body);
    }
  }
  for (const d of debianPackages) {
    line();
    line(SEPARATOR);
    line(`Debian package: ${d.name}`);
    line(`Version: ${d.version ?? 'not installed here'}`);
    line(`Licence: ${d.licences.length > 0 ? d.licences.join('; ') : 'as in its copyright file, below'}`);
    line(`Repository: ${d.upstream ?? '(none given)'}`);
    line(`Used by: ${DEBIAN_USE[d.name] ?? DEBIAN_USE_DEFAULT}`);
    line();
    if (d.freeFormText) {
      line(`--- ${d.copyrightFile}`);
      line(d.freeFormText);
    } else {
      line(`The copyright and licence texts are installed with the package at ${d.copyrightFile}.`);
    }
  }
  line();
  return out.join('\n');
}

/** Problems that make the notices untrue: a package with no licence, a missing attribution. */
export function problemsOf(npmPackages, debianPackages) {
  const problems = [];
  for (const p of npmPackages) {
    if (!p.licence && p.texts.length === 0) problems.push(`${p.name}@${p.version} declares no licence`);
  }
  for (const d of debianPackages) {
    if (!d.version) problems.push(`Debian package ${d.name} is not installed`);
    else if (d.licences.length === 0 && !d.freeFormText) {
      problems.push(`Debian package ${d.name}: no licence in ${d.copyrightFile}`);
    }
  }
  if (!npmPackages.some((p) => p.name === 'fast-geoip')) {
    problems.push('fast-geoip (GeoLite2 data) is no longer a dependency: update EMBEDDED_DATA');
  }
  return problems;
}

/** The text with Debian versions blanked: they follow the machine's security updates. */
function withoutDebianVersions(text) {
  return text.replace(/^(Debian package: .+\n)Version: .+$/gm, '$1Version: -');
}

function main() {
  const check = process.argv.includes('--check');
  const npmPackages = collectNpmPackages();
  const debianPackages = collectDebianPackages();
  const problems = problemsOf(npmPackages, debianPackages);
  if (problems.length > 0) {
    console.error(`third-party notices: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  const text = renderNotices(npmPackages, debianPackages);
  if (!check) {
    writeFileSync(NOTICES_FILE, text);
    console.log(
      `wrote THIRD_PARTY_NOTICES.txt (${npmPackages.length} npm, ${debianPackages.length} Debian packages)`,
    );
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(NOTICES_FILE, 'utf8');
  } catch {
    // reported as stale below
  }
  if (withoutDebianVersions(committed) !== withoutDebianVersions(text)) {
    console.error(
      'THIRD_PARTY_NOTICES.txt is stale (dependencies changed): run `node scripts/third-party-notices.mjs` and commit it',
    );
    process.exit(1);
  }
  if (committed !== text) {
    console.warn('third-party notices: Debian package versions differ from this machine (not an error)');
  }
  console.log('THIRD_PARTY_NOTICES.txt is up to date');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
