import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalStorage } from './local-storage';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-storage-'));
const storage = new LocalStorage(root);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const read = async (stream: Readable | undefined) => {
  const chunks: Buffer[] = [];
  for await (const c of stream ?? []) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
};

describe('LocalStorage', () => {
  it('writes, stats, reads, streams ranges, lists and deletes', async () => {
    expect(await storage.put('ws/a/one.txt', Buffer.from('hello world'))).toEqual({ size: 11 });
    await storage.put('ws/a/two.txt', Readable.from(['stream', 'ed']));
    expect((await storage.get('ws/a/two.txt'))?.toString()).toBe('streamed');
    expect((await storage.stat('ws/a/one.txt'))?.size).toBe(11);
    expect(await read(await storage.stream('ws/a/one.txt', { start: 6, end: 10 }))).toBe('world');
    expect((await storage.list('ws')).sort()).toEqual(['ws/a/one.txt', 'ws/a/two.txt']);
    await storage.delete('ws/a/one.txt');
    expect(await storage.get('ws/a/one.txt')).toBeUndefined();
    expect(await storage.stream('ws/a/one.txt')).toBeUndefined();
    expect(await storage.list('nothing-here')).toEqual([]);
  });

  it('replaces a file whole and leaves no temporary file behind, even when the write fails', async () => {
    await storage.put('x/file.bin', Buffer.alloc(1000, 1));
    await storage.put('x/file.bin', Buffer.alloc(10, 2));
    expect(await storage.get('x/file.bin')).toEqual(Buffer.alloc(10, 2));
    const failing = new Readable({
      read() {
        this.destroy(new Error('upload interrupted'));
      },
    });
    await expect(storage.put('x/file.bin', failing)).rejects.toThrow('upload interrupted');
    expect(await storage.get('x/file.bin')).toEqual(Buffer.alloc(10, 2));
    expect(fs.readdirSync(path.join(root, 'x'))).toEqual(['file.bin']);
  });

  it('rejects keys that would leave its root', async () => {
    for (const key of ['../etc/passwd', 'a/../../b', '/abs/path', '', 'nul\0byte']) {
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(/Invalid storage key/);
    }
  });
});
