/**
 * Kokoro's int8 export runs its vocoder's convolutions as ConvInteger, which ONNX Runtime computes on the
 * CPU with a plain im2col and integer GEMM: 82% of a sentence's time (profiled, 2 cores, 1 thread). This
 * turns the convolutions of a chosen part of a model back into float Conv with their weights dequantized
 * ((w − zero point) × scale), which Runtime runs through its optimised float kernels: Kokoro's vocoder
 * (`/decoder/decoder/generator/`, 50 of its 87 ConvInteger, 14 M of its weights, +43 MB) went from 2.02 s
 * to 1.16 s of CPU for a 3.75 s sentence (bench/neural-tts.bench.ts). The model file is not changed: the
 * engine loads the rewritten bytes from memory.
 *
 * It reads and writes the model's protobuf directly (ONNX's onnx.proto3; only the fields it needs), and
 * recognises the pattern onnxruntime's dynamic quantizer writes for a Conv:
 *   DynamicQuantizeLinear(x) → ConvInteger(xq, Wq, xzp, wzp) → [Add(bias / (xs·ws), floored)] → Cast →
 *   Mul(xs · ws)
 * and replaces it with Conv(x, (Wq − wzp)·ws, bias). A model where the pattern is not found is left as is.
 */

/** One field of a protobuf message: its number, wire type and the bytes of its value. */
interface Field {
  number: number;
  wire: number;
  /** The whole field (key and value) in the message's bytes. */
  start: number;
  end: number;
  /** The value: a varint's number, or a length-delimited field's bytes [valueStart, end). */
  value: number;
  valueStart: number;
}

function readVarint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  let i = at;
  for (;;) {
    const byte = bytes[i];
    if (byte === undefined) throw new Error('truncated varint');
    i += 1;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, i];
    shift += 7;
    if (shift > 63) throw new Error('bad varint');
  }
}

function fields(bytes: Uint8Array, from = 0, to = bytes.length): Field[] {
  const out: Field[] = [];
  let at = from;
  while (at < to) {
    const start = at;
    const [key, afterKey] = readVarint(bytes, at);
    const number = Math.floor(key / 8);
    const wire = key % 8;
    let value = 0;
    let valueStart = afterKey;
    if (wire === 0) [value, at] = readVarint(bytes, afterKey);
    else if (wire === 1) at = afterKey + 8;
    else if (wire === 5) at = afterKey + 4;
    else if (wire === 2) {
      const [length, afterLength] = readVarint(bytes, afterKey);
      valueStart = afterLength;
      at = afterLength + length;
      value = length;
    } else throw new Error(`unsupported wire type ${wire}`);
    if (at > to) throw new Error('truncated field');
    out.push({ number, wire, start, end: at, value, valueStart });
  }
  return out;
}

const utf8 = new TextDecoder();
const text = (bytes: Uint8Array, f: Field) => utf8.decode(bytes.subarray(f.valueStart, f.end));

function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}

function lengthDelimited(number: number, value: Uint8Array): Uint8Array {
  const head = [...varint(number * 8 + 2), ...varint(value.length)];
  const out = new Uint8Array(head.length + value.length);
  out.set(head);
  out.set(value, head.length);
  return out;
}

function varintField(number: number, value: number): Uint8Array {
  return Uint8Array.from([...varint(number * 8), ...varint(value)]);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const encoder = new TextEncoder();

interface Node {
  field: Field;
  inputs: string[];
  outputs: string[];
  name: string;
  op: string;
  /** The attribute fields' bytes, kept as they are. */
  attributes: Uint8Array[];
}

interface Initializer {
  field: Field;
  name: string;
  dims: number[];
  dataType: number;
  raw: Uint8Array | undefined;
  /** Values kept in the typed fields instead of raw data (ONNX keeps small 8-bit tensors in int32_data). */
  floats: number[];
  ints: number[];
}

function parseNode(bytes: Uint8Array, field: Field): Node {
  const node: Node = { field, inputs: [], outputs: [], name: '', op: '', attributes: [] };
  for (const f of fields(bytes, field.valueStart, field.end)) {
    if (f.number === 1) node.inputs.push(text(bytes, f));
    else if (f.number === 2) node.outputs.push(text(bytes, f));
    else if (f.number === 3) node.name = text(bytes, f);
    else if (f.number === 4) node.op = text(bytes, f);
    else if (f.number === 5) node.attributes.push(bytes.subarray(f.start, f.end));
  }
  return node;
}

function parseInitializer(bytes: Uint8Array, field: Field): Initializer {
  const tensor: Initializer = {
    field,
    name: '',
    dims: [],
    dataType: 0,
    raw: undefined,
    floats: [],
    ints: [],
  };
  for (const f of fields(bytes, field.valueStart, field.end)) {
    if (f.number === 1 && f.wire === 0) tensor.dims.push(f.value);
    else if (f.number === 1 && f.wire === 2) {
      let at = f.valueStart;
      while (at < f.end) {
        const [dim, next] = readVarint(bytes, at);
        tensor.dims.push(dim);
        at = next;
      }
    } else if (f.number === 2) tensor.dataType = f.value;
    else if (f.number === 8) tensor.name = text(bytes, f);
    else if (f.number === 9) tensor.raw = bytes.subarray(f.valueStart, f.end);
    else if (f.number === 4 && f.wire === 5) tensor.floats.push(floatAt(bytes, f.valueStart));
    else if (f.number === 4 && f.wire === 2)
      for (let at = f.valueStart; at < f.end; at += 4) tensor.floats.push(floatAt(bytes, at));
    else if (f.number === 5 && f.wire === 0) tensor.ints.push(f.value);
    else if (f.number === 5 && f.wire === 2) {
      let at = f.valueStart;
      while (at < f.end) {
        const [value, next] = readVarint(bytes, at);
        tensor.ints.push(value);
        at = next;
      }
    }
  }
  return tensor;
}

const FLOAT = 1;
const UINT8 = 2;
const INT8 = 3;

function floatAt(bytes: Uint8Array, at: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset + at, 4).getFloat32(0, true);
}

/** An initializer's values as floats (float and 8-bit tensors; undefined for other kinds). */
function values(tensor: Initializer): Float32Array | undefined {
  const raw = tensor.raw;
  if (!raw) {
    if (tensor.dataType === FLOAT) return Float32Array.from(tensor.floats);
    // int32_data holds 8-bit values as they are (uint8 0–255, int8 as its signed value).
    if (tensor.dataType === UINT8 || tensor.dataType === INT8)
      return Float32Array.from(tensor.ints, (v) => (v > 2 ** 31 ? v - 2 ** 64 : v));
    return undefined;
  }
  if (tensor.dataType === FLOAT) {
    const copy = new Uint8Array(raw); // a copy, aligned (a Buffer's slice() would share its memory)
    return new Float32Array(copy.buffer, 0, copy.length / 4);
  }
  if (tensor.dataType === UINT8) return Float32Array.from(raw);
  if (tensor.dataType === INT8)
    return Float32Array.from(new Int8Array(raw.buffer, raw.byteOffset, raw.length));
  return undefined;
}

function encodeNode(node: {
  inputs: string[];
  outputs: string[];
  name: string;
  op: string;
  attributes: Uint8Array[];
}) {
  return concat([
    ...node.inputs.map((name) => lengthDelimited(1, encoder.encode(name))),
    ...node.outputs.map((name) => lengthDelimited(2, encoder.encode(name))),
    lengthDelimited(3, encoder.encode(node.name)),
    lengthDelimited(4, encoder.encode(node.op)),
    ...node.attributes,
  ]);
}

/**
 * A float initializer as the graph's field 5, in pieces (the data is not copied): the field's key and
 * length, the tensor's dims, type, name and raw-data key and length, then the data.
 */
function floatInitializerField(name: string, dims: number[], data: Float32Array): Uint8Array[] {
  const dataBytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const head = concat([
    ...dims.map((dim) => varintField(1, dim)),
    varintField(2, FLOAT),
    lengthDelimited(8, encoder.encode(name)),
    Uint8Array.from([...varint(9 * 8 + 2), ...varint(dataBytes.length)]),
  ]);
  const key = Uint8Array.from([...varint(5 * 8 + 2), ...varint(head.length + dataBytes.length)]);
  return [key, head, dataBytes];
}

/** How many ConvInteger were turned into Conv, and the model's bytes (the same bytes when none). */
export interface FloatConvolutions {
  model: Uint8Array;
  rewritten: number;
}

/**
 * The model with the ConvInteger whose node names start with `prefix` turned into float Conv (see the
 * file's comment), the nodes no longer needed and the initializers no longer used left out.
 */
export function floatConvolutions(model: Uint8Array, prefix: string): FloatConvolutions {
  const top = fields(model);
  const graphFields = top.filter((f) => f.number === 7 && f.wire === 2);
  const graphField = graphFields[0];
  if (graphFields.length !== 1 || !graphField) return { model, rewritten: 0 };
  const graph = fields(model, graphField.valueStart, graphField.end);
  const nodes = graph.filter((f) => f.number === 1).map((f) => parseNode(model, f));
  const initializers = new Map(
    graph
      .filter((f) => f.number === 5)
      .map((f) => {
        const tensor = parseInitializer(model, f);
        return [tensor.name, tensor] as const;
      }),
  );
  const producer = new Map<string, Node>();
  const users = new Map<string, Node[]>();
  for (const node of nodes) {
    for (const output of node.outputs) producer.set(output, node);
    for (const input of node.inputs) users.set(input, [...(users.get(input) ?? []), node]);
  }
  const onlyUser = (name: string | undefined) => {
    const found = name === undefined ? undefined : users.get(name);
    return found?.length === 1 ? found[0] : undefined;
  };

  /** The new Conv of each replaced ConvInteger: its inputs, outputs and bytes (a graph's node field). */
  const replaced = new Map<Node, { inputs: string[]; outputs: string[]; bytes: Uint8Array }>();
  const removed = new Set<Node>();
  const newInitializers: Uint8Array[][] = [];
  for (const conv of nodes) {
    if (conv.op !== 'ConvInteger' || !conv.name.startsWith(prefix)) continue;
    const quantize = producer.get(conv.inputs[0] ?? '');
    const weights = initializers.get(conv.inputs[1] ?? '');
    const zeroPoint = initializers.get(conv.inputs[3] ?? '');
    if (quantize?.op !== 'DynamicQuantizeLinear' || !weights || !zeroPoint) continue;
    let next = onlyUser(conv.outputs[0]);
    const add = next?.op === 'Add' ? next : undefined;
    if (add) next = onlyUser(add.outputs[0]);
    const cast = next?.op === 'Cast' ? next : undefined;
    const mul = onlyUser(cast?.outputs[0]);
    if (!cast || mul?.op !== 'Mul') continue;
    const scaleNode = producer.get(mul.inputs[1] ?? '');
    const scales = (scaleNode?.op === 'Mul' ? scaleNode.inputs : []).flatMap((i) => {
      const found = initializers.get(i);
      return found ? [found] : [];
    });
    const scale = scales.length === 1 ? values(scales[0] as Initializer) : undefined;
    const zero = values(zeroPoint);
    const w = values(weights);
    if (scale?.length !== 1 || zero?.length !== 1 || !w) continue;
    // The float bias, under the Reshape(Cast(Floor(Div(bias, scale)))) that made it an integer.
    let bias: string | undefined;
    if (add) {
      let step = producer.get(add.inputs[1] ?? '');
      while (step && step.op !== 'Div') step = producer.get(step.inputs[0] ?? '');
      bias = step?.inputs[0];
      if (!bias || initializers.get(bias)?.dataType !== FLOAT) continue;
    }
    const s = scale[0] as number;
    const z = zero[0] as number;
    const dequantized = new Float32Array(w.length);
    for (let i = 0; i < w.length; i += 1) dequantized[i] = ((w[i] as number) - z) * s;
    const floatName = `${weights.name}_float`;
    newInitializers.push(floatInitializerField(floatName, weights.dims, dequantized));
    const conv2 = {
      inputs: [quantize.inputs[0] ?? '', floatName, ...(bias ? [bias] : [])],
      outputs: [mul.outputs[0] ?? ''],
      name: `${conv.name}_float`,
      op: 'Conv',
      attributes: conv.attributes,
    };
    replaced.set(conv, { ...conv2, bytes: lengthDelimited(1, encodeNode(conv2)) });
    for (const gone of [cast, mul, ...(add ? [add] : [])]) removed.add(gone);
  }
  if (replaced.size === 0) return { model, rewritten: 0 };

  // What the graph still needs, from its outputs back: the quantizers and integer biases of the replaced
  // convolutions are left out (Runtime would compute them for nothing), and so are the integer weights.
  const needed = new Set(
    graph
      .filter((f) => f.number === 12)
      .flatMap((f) => fields(model, f.valueStart, f.end).filter((g) => g.number === 1))
      .map((f) => text(model, f)),
  );
  const live = new Set<Node>();
  for (let i = nodes.length - 1; i >= 0; i -= 1) {
    const node = nodes[i] as Node;
    if (removed.has(node)) continue;
    const { inputs, outputs } = replaced.get(node) ?? node;
    if (outputs.some((o) => needed.has(o))) {
      live.add(node);
      for (const input of inputs) needed.add(input);
    }
  }

  const nodeAt = new Map(nodes.map((n) => [n.field.start, n]));
  const initializerAt = new Map([...initializers.values()].map((t) => [t.field.start, t]));
  const parts: Uint8Array[] = [];
  for (const f of graph) {
    if (f.number === 1) {
      const node = nodeAt.get(f.start);
      if (node && live.has(node)) parts.push(replaced.get(node)?.bytes ?? model.subarray(f.start, f.end));
    } else if (f.number === 5) {
      const tensor = initializerAt.get(f.start);
      if (tensor && needed.has(tensor.name)) parts.push(model.subarray(f.start, f.end));
    } else parts.push(model.subarray(f.start, f.end));
  }
  parts.push(...newInitializers.flat());
  // One copy into the new model: its fields as they were, the graph's rebuilt from the parts.
  const graphLength = parts.reduce((sum, p) => sum + p.length, 0);
  const modelParts = top.flatMap((f) =>
    f === graphField
      ? [Uint8Array.from([...varint(7 * 8 + 2), ...varint(graphLength)]), ...parts]
      : [model.subarray(f.start, f.end)],
  );
  return { model: concat(modelParts), rewritten: replaced.size };
}
