/**
 * Checking model files against the catalogue: present, of the right size, and with the right SHA-256.
 * Hashing ~300 MB at every start would cost about a second, so a file's verified hash is remembered in a
 * stamp file (`.verified.json` in MODELS_DIR) keyed by the file's size, inode, mtime and ctime: a file that
 * was rewritten, touched, copied or replaced since is hashed again (ctime moves with any write and cannot
 * be set back by hand). `verify` (full) ignores the stamps and hashes every byte.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ModelFile } from './model-catalogue';

/** Why a file cannot be used. */
export type FileProblem = 'missing' | 'partial' | 'wrong_size' | 'checksum_mismatch' | 'unreadable';

export interface FileCheck {
  /** The file's path under MODELS_DIR. */
  path: string;
  problem: FileProblem | null;
  /** A sentence for a person, when there is a problem. */
  message: string | null;
  /** Whether its bytes were hashed in this check (false when a stamp vouched for it). */
  hashed: boolean;
}

/** The suffix of a file being written: it becomes the file only by a rename once it is whole and checked. */
export const PARTIAL_SUFFIX = '.part';
export const STAMP_FILE = '.verified.json';

const formatBytes = (n: number) => n.toLocaleString('en-US');

/** The SHA-256 of a file, read in 4 MiB blocks (never held whole). */
export function sha256OfFile(file: string): string {
  const hash = createHash('sha256');
  const block = Buffer.allocUnsafe(4 * 1024 * 1024);
  const fd = fs.openSync(file, 'r');
  try {
    for (;;) {
      const read = fs.readSync(fd, block, 0, block.length, null);
      if (read === 0) break;
      hash.update(block.subarray(0, read));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

interface Stamp {
  size: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  sha256: string;
}

/** The stamps of verified files in a models folder. Writing them is best effort: the folder may be read-only. */
export class VerifiedStamps {
  private stamps: Record<string, Stamp> = {};
  private changed = false;

  constructor(private readonly dir: string) {
    try {
      const parsed = JSON.parse(fs.readFileSync(path.join(dir, STAMP_FILE), 'utf8')) as {
        files?: Record<string, Stamp>;
      };
      if (parsed && typeof parsed.files === 'object' && parsed.files) this.stamps = parsed.files;
    } catch {
      // No stamps yet, or unreadable ones: every file is hashed once.
    }
  }

  /** The hash a stamp vouches for, when the file is still the one that was hashed. */
  vouchedHash(relative: string, stat: fs.Stats): string | undefined {
    const s = this.stamps[relative];
    if (!s) return undefined;
    const same =
      s.size === stat.size && s.ino === stat.ino && s.mtimeMs === stat.mtimeMs && s.ctimeMs === stat.ctimeMs;
    return same ? s.sha256 : undefined;
  }

  remember(relative: string, stat: fs.Stats, sha256: string): void {
    this.stamps[relative] = {
      size: stat.size,
      ino: stat.ino,
      mtimeMs: stat.mtimeMs,
      ctimeMs: stat.ctimeMs,
      sha256,
    };
    this.changed = true;
  }

  forget(relative: string): void {
    if (relative in this.stamps) {
      delete this.stamps[relative];
      this.changed = true;
    }
  }

  /** Writes the stamps (temp file, then rename) when they changed; false when the folder refused. */
  save(): boolean {
    if (!this.changed) return true;
    const target = path.join(this.dir, STAMP_FILE);
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      const temp = `${target}.${process.pid}${PARTIAL_SUFFIX}`;
      fs.writeFileSync(temp, `${JSON.stringify({ version: 1, files: this.stamps }, null, 1)}\n`);
      fs.renameSync(temp, target);
      this.changed = false;
      return true;
    } catch {
      return false;
    }
  }
}

const FETCH_HINT = 'run `npm run admin -- models fetch`';

/**
 * Checks one file: present, the catalogue's size, and the catalogue's SHA-256 (from a stamp when one
 * vouches for this very file, unless `full`).
 */
export function checkFile(dir: string, file: ModelFile, stamps: VerifiedStamps, full: boolean): FileCheck {
  const target = path.join(dir, file.path);
  const result = (problem: FileProblem | null, message: string | null, hashed = false): FileCheck => ({
    path: file.path,
    problem,
    message,
    hashed,
  });
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      return result('unreadable', `${file.path}: cannot be read (${(error as Error).message})`);
    stamps.forget(file.path);
    let partial: fs.Stats | undefined;
    try {
      partial = fs.statSync(`${target}${PARTIAL_SUFFIX}`);
    } catch {}
    if (partial)
      return result(
        'partial',
        `${file.path}: partial download (${formatBytes(partial.size)} of ${formatBytes(file.size)} bytes); ${FETCH_HINT}`,
      );
    return result('missing', `${file.path}: missing; ${FETCH_HINT}`);
  }
  if (!stat.isFile()) return result('unreadable', `${file.path}: is not a file`);
  if (stat.size !== file.size) {
    stamps.forget(file.path);
    return result(
      'wrong_size',
      `${file.path}: wrong size (${formatBytes(stat.size)} bytes, expected ${formatBytes(file.size)})`,
    );
  }
  if (!full && stamps.vouchedHash(file.path, stat) === file.sha256) return result(null, null);
  let sha256: string;
  try {
    sha256 = sha256OfFile(target);
  } catch (error) {
    return result('unreadable', `${file.path}: cannot be read (${(error as Error).message})`, true);
  }
  if (sha256 !== file.sha256) {
    stamps.forget(file.path);
    return result(
      'checksum_mismatch',
      `${file.path}: checksum mismatch (SHA-256 ${sha256.slice(0, 12)}…, expected ${file.sha256.slice(0, 12)}…)`,
      true,
    );
  }
  stamps.remember(file.path, stat, sha256);
  return result(null, null, true);
}

/**
 * One sentence for a model's problems: the first file's, and how many more there are; "not fetched"
 * when none of its files is there at all.
 */
export function describeProblems(problems: readonly FileCheck[], fileCount: number): string {
  const bad = problems.filter((p) => p.problem !== null);
  if (bad.length === 0) return '';
  if (bad.length === fileCount && bad.every((p) => p.problem === 'missing'))
    return fileCount === 1
      ? `not fetched: ${bad[0]?.path} is missing; ${FETCH_HINT}`
      : `not fetched: its ${fileCount} files are missing; ${FETCH_HINT}`;
  const first = bad[0]?.message ?? '';
  return bad.length === 1 ? first : `${first} (and ${bad.length - 1} more files with problems)`;
}
