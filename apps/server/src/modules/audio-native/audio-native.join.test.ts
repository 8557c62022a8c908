import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalStorage } from '../../platform/storage/local-storage';
import { storeJoinedAudio } from './audio-native.service';

/*
 * The player's joined file (review of issue 30): written as its parts are read, it stores nothing and
 * fails clearly when a part is missing, and a write that fails ends the join with its files closed.
 */

let root: string;
let local: LocalStorage;
let opened: Readable[];
let logger: Logger;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'audio-native-join-'));
  local = new LocalStorage(root);
  opened = [];
  const stream = local.stream.bind(local);
  local.stream = async (key: string) => {
    const s = await stream(key);
    if (s) opened.push(s);
    return s;
  };
  logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as Logger;
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('storeJoinedAudio', () => {
  it('joins the parts into one stored file', async () => {
    await local.put('a.mp3', Buffer.alloc(70_000, 1));
    await local.put('b.mp3', Buffer.alloc(30_000, 2));
    await storeJoinedAudio({ storage: local, logger }, 'joined.mp3', ['a.mp3', 'b.mp3']);
    expect((await local.stat('joined.mp3'))?.size).toBe(100_000);
  });

  it('stores nothing and fails, logging the part, when a part is missing', async () => {
    await local.put('a.mp3', Buffer.alloc(1000, 1));
    await local.put('c.mp3', Buffer.alloc(1000, 3));
    await expect(
      storeJoinedAudio({ storage: local, logger }, 'joined.mp3', ['a.mp3', 'b.mp3', 'c.mp3']),
    ).rejects.toThrow(/missing/);
    expect(await local.stat('joined.mp3')).toBeUndefined();
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ key: 'b.mp3' }), expect.any(String));
  });

  it('ends, with the part it read closed, when the write fails part-way', async () => {
    await local.put('a.mp3', Buffer.alloc(4_000_000, 1));
    const storage = Object.assign(Object.create(local) as LocalStorage, {
      // A store that takes one chunk, then fails (a full disk, a lost bucket).
      put: async (_key: string, data: Readable) => {
        for await (const _chunk of data) throw new Error('disk full');
        return { size: 0 };
      },
    });
    const outcome = await Promise.race([
      storeJoinedAudio({ storage, logger }, 'joined.mp3', ['a.mp3']).then(
        () => 'stored',
        (error: Error) => error.message,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 2 s'), 2000)),
    ]);
    expect(outcome).toBe('disk full');
    await new Promise((r) => setTimeout(r, 20));
    expect(opened[0]?.destroyed).toBe(true);
  });
});
