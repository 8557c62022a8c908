import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { newId } from '../ids';
import type { Storage } from './storage';

/** Files on local disk under one root folder; writes go to a temporary file and are renamed into place. */
export class LocalStorage implements Storage {
  constructor(private readonly root: string) {}

  /** The absolute path of a key; rejects keys that would leave the root. */
  resolve(key: string): string {
    if (!key || key.includes('\0') || path.isAbsolute(key) || key.split(/[\\/]/).includes('..')) {
      throw new Error(`Invalid storage key "${key}"`);
    }
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer | Uint8Array | Readable): Promise<{ size: number }> {
    const target = this.resolve(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.${newId(8)}.tmp`);
    try {
      if (data instanceof Readable) {
        await pipeline(data, createWriteStream(temp, { flags: 'wx' }));
      } else {
        const handle = await fs.open(temp, 'wx');
        try {
          await handle.writeFile(data);
          await handle.sync();
        } finally {
          await handle.close();
        }
      }
      await fs.rename(temp, target);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
    return { size: (await fs.stat(target)).size };
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.resolve(key));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async stream(key: string, range?: { start: number; end: number }): Promise<Readable | undefined> {
    const file = this.resolve(key);
    if (!(await this.stat(key))) return undefined;
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<{ size: number; modifiedAt: Date } | undefined> {
    try {
      const s = await fs.stat(this.resolve(key));
      return s.isFile() ? { size: s.size, modifiedAt: s.mtime } : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.resolve(key), { force: true });
  }

  async list(prefix: string): Promise<string[]> {
    const base = prefix ? this.resolve(prefix) : this.root;
    try {
      const entries = await fs.readdir(base, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => e.isFile() && !e.name.endsWith('.tmp'))
        .map((e) => path.relative(this.root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}
