import { describe, expect, it } from 'vitest';
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
