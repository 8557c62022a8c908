import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runMediaTool } from '../../platform/media/run-media-tool';
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

/** A chapter MP3 as Studio encodes it (ID3 tag, Info frame, 128 kb/s frames of 417 or 418 bytes). */
async function chapterMp3(key: string, seconds: number) {
  const file = path.join(root, `${key}.src`);
  const encoded = await runMediaTool(
    'ffmpeg',
    [
      ...['-v', 'error', '-f', 'lavfi', '-i', `sine=duration=${seconds}`],
      ...['-c:a', 'libmp3lame', '-b:a', '128k', '-ar', '44100', '-ac', '1', '-f', 'mp3', '-y', file],
    ],
    { timeoutMs: 30_000 },
  );
  expect(encoded.exit.code).toBe(0);
  await local.put(key, await fs.readFile(file));
}

describe('storeJoinedAudio', () => {
  it('joins the parts into one stored MP3 with one header (the parts’ ID3 tags and Info frames dropped)', async () => {
    await chapterMp3('a.mp3', 1);
    await chapterMp3('b.mp3', 2);
    await storeJoinedAudio({ storage: local, logger }, 'joined.mp3', ['a.mp3', 'b.mp3']);
    const joined = (await local.get('joined.mp3')) as Buffer;
    const a = (await local.get('a.mp3')) as Buffer;
    const b = (await local.get('b.mp3')) as Buffer;
    // Each part loses its ID3 tag (45 bytes from ffmpeg) and Info frame (417); the whole gains one header.
    expect(joined.length).toBe(a.length + b.length - 2 * (45 + 417) + 417);
    expect(joined.subarray(21, 25).toString()).toBe('Info');
    expect(joined.indexOf('ID3')).toBe(-1);
  });

  it('stores nothing and fails, logging the part, when a part is missing', async () => {
    await chapterMp3('a.mp3', 0.5);
    await chapterMp3('c.mp3', 0.5);
    await expect(
      storeJoinedAudio({ storage: local, logger }, 'joined.mp3', ['a.mp3', 'b.mp3', 'c.mp3']),
    ).rejects.toThrow(/missing/);
    expect(await local.stat('joined.mp3')).toBeUndefined();
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ key: 'b.mp3' }), expect.any(String));
  });

  it('ends, with the part it read closed, when the write fails part-way', async () => {
    await chapterMp3('a.mp3', 30);
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
    expect(opened.length).toBeGreaterThan(0);
    for (const stream of opened) expect(stream.destroyed).toBe(true);
  });
});
