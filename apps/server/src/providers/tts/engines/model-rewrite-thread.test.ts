import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { floatConvolutionsFile, removeStaleCopies, STALE_COPY_MS } from './model-rewrite-thread';

const prefix = '/decoder/decoder/generator';
const size = 92_361_271;
const hour = STALE_COPY_MS;

describe('the float-convolution copies of a model in the temp folder', () => {
  let dir: string;
  let tmpdir: string | undefined;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-rewrite-test-'));
    tmpdir = process.env.TMPDIR;
  });
  afterEach(() => {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A file in the copies' folder, last modified `ageMs` before `now`. */
  function file(copies: string, name: string, now: number, ageMs: number): void {
    fs.writeFileSync(path.join(copies, name), 'x');
    const at = new Date(now - ageMs);
    fs.utimesSync(path.join(copies, name), at, at);
  }

  it('removes the older copies of the same source untouched for an hour, and nothing else', () => {
    const copies = path.join(dir, 'parla-models');
    fs.mkdirSync(copies);
    const now = Date.now();
    const source = { file: '/models/kokoro-82m/model.int8.onnx', size, prefix };
    const name = (mtime: number) => `kokoro-82m-${size}-${mtime}-decoder-decoder-generator.onnx`;
    const target = path.join(copies, name(3000));
    file(copies, name(3000), now, 2 * hour); // the copy just made (its source's old mtime does not matter)
    file(copies, name(1000), now, 2 * hour); // stale: removed
    file(copies, name(2000), now, hour - 60_000); // taken by some process within the hour: kept
    file(copies, `${name(1500)}.4242-2.partial`, now, 2 * hour); // a killed rewrite's leftover: removed
    file(copies, `${name(3000)}.4243-2.partial`, now, 60_000); // a rewrite under way: kept
    file(copies, `kokoro-82m-${size + 1}-1000-decoder-decoder-generator.onnx`, now, 2 * hour); // other size
    file(copies, `kokoro-82m-v2-${size}-1000-decoder-decoder-generator.onnx`, now, 2 * hour); // other folder
    file(copies, `kokoro-82m-${size}-1000-decoder-other.onnx`, now, 2 * hour); // other rewrite
    file(copies, 'notes.txt', now, 2 * hour);

    const removed = removeStaleCopies(target, source, now);

    expect(removed.sort()).toEqual([name(1000), `${name(1500)}.4242-2.partial`]);
    expect(fs.readdirSync(copies).sort()).toEqual(
      [
        name(3000),
        name(2000),
        `${name(3000)}.4243-2.partial`,
        `kokoro-82m-${size + 1}-1000-decoder-decoder-generator.onnx`,
        `kokoro-82m-v2-${size}-1000-decoder-decoder-generator.onnx`,
        `kokoro-82m-${size}-1000-decoder-other.onnx`,
        'notes.txt',
      ].sort(),
    );
  });

  it('reuses a copy already made, marking it taken now so that no other checkout removes it', async () => {
    process.env.TMPDIR = dir;
    const modelDir = path.join(dir, 'kokoro-82m');
    fs.mkdirSync(modelDir);
    const model = path.join(modelDir, 'model.onnx');
    // Not a model: a rewrite would fail, so an answer proves the copy was reused.
    fs.writeFileSync(model, 'not an onnx model');
    const stat = fs.statSync(model);
    const copies = path.join(dir, 'parla-models');
    fs.mkdirSync(copies);
    const name = `kokoro-82m-${stat.size}-${Math.round(stat.mtimeMs)}-decoder-decoder-generator.onnx`;
    file(copies, name, Date.now(), 3 * hour);

    const copy = await floatConvolutionsFile(model, prefix);

    expect(copy).toBe(path.join(copies, name));
    expect(Date.now() - fs.statSync(copy).mtimeMs).toBeLessThan(60_000);
  });
});
