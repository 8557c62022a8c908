import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { unzipSync } from 'fflate';
import type { Logger } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runMediaTool } from '../../platform/media/run-media-tool';
import { LocalStorage } from '../../platform/storage/local-storage';
import { joinMp3Parts, joinParts, zipParts } from './studio.snapshots';

/*
 * The snapshot downloads' streams (review of issue 30): they read storage only as fast as the client takes
 * the bytes, close every file they opened when the client goes away, and fail — never shorten the audio —
 * when a chapter's file is missing.
 */

let root: string;
let storage: LocalStorage;
/** Every stream storage handed out, with the bytes read from it. */
let opened: { key: string; stream: Readable; bytes: number }[];
let logger: Logger;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'studio-streams-'));
  const local = new LocalStorage(root);
  opened = [];
  storage = Object.assign(local, {
    stream: async (key: string) => {
      const stream = await LocalStorage.prototype.stream.call(local, key);
      if (stream) {
        const record = { key, stream, bytes: 0 };
        stream.on('data', (chunk: Buffer) => {
          record.bytes += chunk.length;
        });
        opened.push(record);
      }
      return stream;
    },
  });
  logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as Logger;
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const bytes = (size: number, fill: number) => Buffer.alloc(size, fill);
/** Lets the streams' queued work run (file reads finish within a few turns of the event loop). */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 2));
};
const readAll = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
};

describe('joinParts', () => {
  it('sends the parts one after another', async () => {
    await storage.put('a.bin', bytes(100_000, 1));
    await storage.put('b.bin', bytes(50_000, 2));
    const all = await readAll(joinParts({ storage, logger }, ['a.bin', 'b.bin']));
    expect(all.length).toBe(150_000);
    expect(all[99_999]).toBe(1);
    expect(all[100_000]).toBe(2);
  });

  it('closes the file it reads and stops when the client goes away mid-download', async () => {
    await storage.put('a.bin', bytes(4_000_000, 1));
    await storage.put('b.bin', bytes(4_000_000, 2));
    const out = joinParts({ storage, logger }, ['a.bin', 'b.bin']);
    const first = await new Promise<Buffer>((resolve) => out.once('data', resolve));
    expect(first.length).toBeGreaterThan(0);
    out.destroy();
    await settle();
    expect(opened.map((o) => o.key)).toEqual(['a.bin']);
    expect(opened[0]?.stream.destroyed).toBe(true);
    expect(opened[0]?.bytes).toBeLessThan(1_000_000);
  });

  it('reads storage only as fast as a slow reader takes the bytes', async () => {
    await storage.put('a.bin', bytes(4_000_000, 1));
    const out = joinParts({ storage, logger }, ['a.bin']);
    out.pause();
    await settle();
    // Nothing read yet beyond what the buffers between storage and the client hold.
    expect(opened[0]?.bytes ?? 0).toBeLessThan(512 * 1024);
    expect((await readAll(out)).length).toBe(4_000_000);
  });

  it('fails, and logs which part, when a chapter’s file is missing (not a shorter file)', async () => {
    await storage.put('a.bin', bytes(1000, 1));
    await storage.put('c.bin', bytes(1000, 3));
    await expect(readAll(joinParts({ storage, logger }, ['a.bin', 'b.bin', 'c.bin']))).rejects.toThrow(
      /missing/,
    );
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ key: 'b.bin' }), expect.any(String));
  });
});

describe('zipParts', () => {
  it('zips the parts under their names', async () => {
    await storage.put('a.bin', bytes(100_000, 1));
    await storage.put('b.bin', bytes(10, 2));
    const zip = await readAll(
      zipParts({ storage, logger }, [
        { name: '001_One.mp3', key: 'a.bin' },
        { name: '002_Two.mp3', key: 'b.bin' },
      ]),
    );
    const files = unzipSync(new Uint8Array(zip));
    expect(Object.keys(files)).toEqual(['001_One.mp3', '002_Two.mp3']);
    expect(files['001_One.mp3']?.length).toBe(100_000);
    expect(Buffer.from(files['002_Two.mp3'] ?? []).equals(bytes(10, 2))).toBe(true);
  });

  it('reads storage only as fast as a slow reader takes the archive', async () => {
    await storage.put('a.bin', bytes(4_000_000, 1));
    const out = zipParts({ storage, logger }, [{ name: 'a.mp3', key: 'a.bin' }]);
    out.pause();
    await settle();
    expect(opened[0]?.bytes ?? 0).toBeLessThan(512 * 1024);
    const files = unzipSync(new Uint8Array(await readAll(out)));
    expect(files['a.mp3']?.length).toBe(4_000_000);
  });

  it('closes the file it reads when the client goes away mid-download', async () => {
    await storage.put('a.bin', bytes(4_000_000, 1));
    const out = zipParts({ storage, logger }, [{ name: 'a.mp3', key: 'a.bin' }]);
    await new Promise((resolve) => out.once('data', resolve));
    out.destroy();
    await settle();
    expect(opened[0]?.stream.destroyed).toBe(true);
    expect(opened[0]?.bytes).toBeLessThan(1_000_000);
  });

  it('fails, and logs which part, when a chapter’s file is missing (not an empty entry)', async () => {
    await storage.put('a.bin', bytes(1000, 1));
    const out = zipParts({ storage, logger }, [
      { name: 'a.mp3', key: 'a.bin' },
      { name: 'b.mp3', key: 'b.bin' },
    ]);
    await expect(readAll(out)).rejects.toThrow(/missing/);
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ key: 'b.bin' }), expect.any(String));
  });
});

describe('joinMp3Parts', () => {
  /** A chapter as studio.audio.ts encodes it: libmp3lame CBR, 44.1 kHz mono, ffmpeg's ID3 tag and Info frame. */
  async function chapterMp3(key: string, seconds: number, bitrate: string) {
    const file = path.join(root, `${key}.src`);
    const args = [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${seconds}`,
    ];
    const codec = [
      '-c:a',
      'libmp3lame',
      '-b:a',
      bitrate,
      '-ar',
      '44100',
      '-ac',
      '1',
      '-f',
      'mp3',
      '-y',
      file,
    ];
    const made = await runMediaTool('ffmpeg', [...args, ...codec], { timeoutMs: 30_000 });
    expect(made.exit.code).toBe(0);
    await storage.put(key, await fs.readFile(file));
  }
  async function ffprobeSeconds(key: string): Promise<number> {
    const probe = await runMediaTool(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', local(key)],
      { timeoutMs: 30_000 },
    );
    return Number(probe.stdout.toString().trim());
  }
  const local = (key: string) => path.join(root, key);
  /** The duration a player that trusts the first Xing/Info frame shows (Firefox, Safari): frames × 1152 / rate. */
  async function headerSeconds(key: string): Promise<number> {
    const bytes = await fs.readFile(local(key));
    const id3 =
      bytes.subarray(0, 3).toString() === 'ID3'
        ? 10 +
          (((bytes[6] as number) << 21) |
            ((bytes[7] as number) << 14) |
            ((bytes[8] as number) << 7) |
            (bytes[9] as number))
        : 0;
    const tag = bytes.subarray(id3 + 21, id3 + 25).toString();
    expect(['Xing', 'Info']).toContain(tag);
    return (bytes.readUInt32BE(id3 + 29) * 1152) / 44_100;
  }
  const FRAME_SECS = 1152 / 44_100;

  it.each([
    ['one bit rate', ['128k', '128k', '128k']],
    ['bit rates changed between conversions', ['128k', '192k', '128k']],
  ])('gives one header whose duration is the sum of the chapters’ (%s)', async (_name, rates) => {
    const seconds = [3.3, 5.1, 2.2];
    const keys = ['c1.mp3', 'c2.mp3', 'c3.mp3'];
    for (const [i, key] of keys.entries()) await chapterMp3(key, seconds[i] as number, rates[i] as string);
    await storage.put('joined.mp3', await joinMp3Parts({ storage, logger }, keys));
    let sum = 0;
    for (const key of keys) sum += await ffprobeSeconds(key);
    expect(Math.abs((await ffprobeSeconds('joined.mp3')) - sum)).toBeLessThanOrEqual(FRAME_SECS);
    expect(Math.abs((await headerSeconds('joined.mp3')) - sum)).toBeLessThanOrEqual(FRAME_SECS);
    // One header at the start, no chapter's ID3 tag or Info frame left inside.
    const joined = await fs.readFile(local('joined.mp3'));
    expect(joined.indexOf('ID3')).toBe(-1);
    expect(joined.indexOf('Info', 40) + joined.indexOf('Xing', 40)).toBe(-2);
  });
});
