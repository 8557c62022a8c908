/*
 * A TrueType font read just enough to embed a subset of it in a PDF (decision record 0014): the character
 * map (cmap format 12, else 4), advance widths (hmtx), the metrics a PDF font descriptor asks for (head,
 * hhea, OS/2), and the glyph outlines (loca, glyf). `subset` writes a new font holding only the glyphs a
 * document uses — renumbered from 0, composite glyphs' components included — with the tables a PDF reader
 * needs to draw them (PDF 1.7 §9.9: glyf, head, hhea, hmtx, loca, maxp, and the hinting tables cvt, fpgm
 * and prep, which the glyphs' instructions call), post and OS/2, which some rasterisers insist on, and
 * name, the font's copyright and licence.
 */

interface TableRecord {
  offset: number;
  length: number;
}

/** The composite glyph flags that say how long a component's record is (OpenType `glyf`). */
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;

/**
 * The tables a subset keeps, copied (head, hhea, maxp, post rewritten; hmtx, loca, glyf rebuilt): `name`
 * carries the font's copyright and licence, which its licence asks every copy to include.
 */
const KEPT_TABLES = ['OS/2', 'cvt ', 'fpgm', 'name', 'prep'] as const;

/** The checksum of a table (OpenType: the sum of its big-endian 32-bit words, zero-padded). */
function checksum(data: Buffer): number {
  let sum = 0;
  const padded = data.length % 4 === 0 ? data : Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))]);
  for (let at = 0; at < padded.length; at += 4) sum = (sum + padded.readUInt32BE(at)) >>> 0;
  return sum;
}

export class TrueTypeFont {
  readonly unitsPerEm: number;
  readonly numGlyphs: number;
  /** Font-wide bounding box, ascent and descent, in font units. */
  readonly bbox: [number, number, number, number];
  readonly ascent: number;
  readonly descent: number;
  private readonly tables = new Map<string, TableRecord>();
  private readonly glyphOffsets: number[] = [];
  private readonly advances: number[] = [];
  private readonly leftBearings: number[] = [];
  private readonly cmap = new Map<number, number>();

  constructor(private readonly data: Buffer) {
    const version = data.readUInt32BE(0);
    if (version !== 0x00010000 && version !== 0x74727565)
      throw new Error('not a TrueType font (no glyf outlines)');
    const count = data.readUInt16BE(4);
    for (let i = 0; i < count; i += 1) {
      const at = 12 + 16 * i;
      this.tables.set(data.toString('latin1', at, at + 4), {
        offset: data.readUInt32BE(at + 8),
        length: data.readUInt32BE(at + 12),
      });
    }
    const head = this.table('head');
    const hhea = this.table('hhea');
    this.unitsPerEm = head.readUInt16BE(18);
    this.bbox = [head.readInt16BE(36), head.readInt16BE(38), head.readInt16BE(40), head.readInt16BE(42)];
    this.ascent = hhea.readInt16BE(4);
    this.descent = hhea.readInt16BE(6);
    this.numGlyphs = this.table('maxp').readUInt16BE(4);

    const loca = this.table('loca');
    const long = head.readInt16BE(50) === 1;
    for (let g = 0; g <= this.numGlyphs; g += 1)
      this.glyphOffsets.push(long ? loca.readUInt32BE(g * 4) : loca.readUInt16BE(g * 2) * 2);

    const hmtx = this.table('hmtx');
    const metrics = hhea.readUInt16BE(34);
    for (let g = 0; g < this.numGlyphs; g += 1) {
      if (g < metrics) {
        this.advances.push(hmtx.readUInt16BE(g * 4));
        this.leftBearings.push(hmtx.readInt16BE(g * 4 + 2));
      } else {
        this.advances.push(this.advances[metrics - 1] ?? 0);
        this.leftBearings.push(hmtx.readInt16BE(metrics * 4 + (g - metrics) * 2));
      }
    }
    // A subset written for a PDF has no cmap: the PDF maps its codes to glyphs itself.
    if (this.tables.has('cmap')) this.readCmap();
  }

  private table(tag: string): Buffer {
    const record = this.tables.get(tag);
    if (!record) throw new Error(`the font has no ${tag} table`);
    return this.data.subarray(record.offset, record.offset + record.length);
  }

  /** The Unicode map: the (3,10) format 12 subtable (all planes), else the (3,1) format 4 one (BMP). */
  private readCmap(): void {
    const cmap = this.table('cmap');
    const subtables = new Map<string, number>();
    for (let i = 0; i < cmap.readUInt16BE(2); i += 1) {
      const at = 4 + 8 * i;
      subtables.set(`${cmap.readUInt16BE(at)},${cmap.readUInt16BE(at + 2)}`, cmap.readUInt32BE(at + 4));
    }
    const full = subtables.get('3,10');
    if (full !== undefined && cmap.readUInt16BE(full) === 12) {
      const groups = cmap.readUInt32BE(full + 12);
      for (let i = 0; i < groups; i += 1) {
        const at = full + 16 + 12 * i;
        const [start, end, glyph] = [
          cmap.readUInt32BE(at),
          cmap.readUInt32BE(at + 4),
          cmap.readUInt32BE(at + 8),
        ];
        for (let code = start; code <= end; code += 1) this.cmap.set(code, glyph + code - start);
      }
      return;
    }
    const bmp = subtables.get('3,1');
    if (bmp === undefined || cmap.readUInt16BE(bmp) !== 4) throw new Error('the font has no Unicode cmap');
    const segments = cmap.readUInt16BE(bmp + 6) / 2;
    const ends = bmp + 14;
    const starts = ends + segments * 2 + 2;
    const deltas = starts + segments * 2;
    const rangeOffsets = deltas + segments * 2;
    for (let s = 0; s < segments; s += 1) {
      const [start, end] = [cmap.readUInt16BE(starts + s * 2), cmap.readUInt16BE(ends + s * 2)];
      const delta = cmap.readUInt16BE(deltas + s * 2);
      const rangeOffset = cmap.readUInt16BE(rangeOffsets + s * 2);
      for (let code = start; code <= end && code !== 0xffff; code += 1) {
        let glyph: number;
        if (rangeOffset === 0) glyph = (code + delta) & 0xffff;
        else {
          const at = rangeOffsets + s * 2 + rangeOffset + (code - start) * 2;
          const raw = cmap.readUInt16BE(at);
          glyph = raw === 0 ? 0 : (raw + delta) & 0xffff;
        }
        if (glyph !== 0) this.cmap.set(code, glyph);
      }
    }
  }

  /** The glyph of a code point, or 0 (`.notdef`, drawn as a box) when the font has none. */
  glyphOf(codePoint: number): number {
    return this.cmap.get(codePoint) ?? 0;
  }

  /** A glyph's advance width, in font units. */
  advanceOf(glyph: number): number {
    return this.advances[glyph] ?? 0;
  }

  /** A glyph's outline data (empty for a glyph with no contours, such as a space). */
  glyphData(glyph: number): Buffer {
    const glyf = this.table('glyf');
    return glyf.subarray(this.glyphOffsets[glyph] ?? 0, this.glyphOffsets[glyph + 1] ?? 0);
  }

  /** The top of a glyph's outline, in font units (0 for an empty glyph). */
  glyphTop(glyph: number): number {
    const data = this.glyphData(glyph);
    return data.length >= 10 ? data.readInt16BE(8) : 0;
  }

  /** The glyphs a composite glyph is built of (none for a simple one). */
  private components(data: Buffer): { glyph: number; at: number }[] {
    if (data.length < 10 || data.readInt16BE(0) >= 0) return [];
    const found: { glyph: number; at: number }[] = [];
    let at = 10;
    for (;;) {
      const flags = data.readUInt16BE(at);
      found.push({ glyph: data.readUInt16BE(at + 2), at: at + 2 });
      at += 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
      if (flags & WE_HAVE_A_SCALE) at += 2;
      else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) at += 4;
      else if (flags & WE_HAVE_A_TWO_BY_TWO) at += 8;
      if (!(flags & MORE_COMPONENTS)) return found;
    }
  }

  /**
   * A font of these glyphs only: new glyph `i` is `glyphs[i]` (glyph 0 must be `.notdef`), followed by the
   * components composite glyphs need. Answers the font file and the new glyph id of each old one.
   */
  subset(glyphs: readonly number[]): { file: Buffer; newGlyph: ReadonlyMap<number, number> } {
    const order = [...new Set([0, ...glyphs])];
    const newGlyph = new Map(order.map((old, index) => [old, index]));
    for (let i = 0; i < order.length; i += 1) {
      for (const { glyph } of this.components(this.glyphData(order[i] as number))) {
        if (!newGlyph.has(glyph)) {
          newGlyph.set(glyph, order.length);
          order.push(glyph);
        }
      }
    }
    const outlines: Buffer[] = [];
    const loca = Buffer.alloc((order.length + 1) * 4);
    let offset = 0;
    order.forEach((old, index) => {
      loca.writeUInt32BE(offset, index * 4);
      const data = Buffer.from(this.glyphData(old));
      for (const { glyph, at } of this.components(data)) data.writeUInt16BE(newGlyph.get(glyph) ?? 0, at);
      // Each outline starts on a 4-byte boundary.
      const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)]);
      outlines.push(padded);
      offset += padded.length;
    });
    loca.writeUInt32BE(offset, order.length * 4);
    const hmtx = Buffer.alloc(order.length * 4);
    order.forEach((old, index) => {
      hmtx.writeUInt16BE(this.advanceOf(old), index * 4);
      hmtx.writeInt16BE(this.leftBearings[old] ?? 0, index * 4 + 2);
    });
    const head = Buffer.from(this.table('head'));
    head.writeUInt32BE(0, 8); // checkSumAdjustment, set below
    head.writeInt16BE(1, 50); // long offsets in loca
    const hhea = Buffer.from(this.table('hhea'));
    hhea.writeUInt16BE(order.length, 34);
    const maxp = Buffer.from(this.table('maxp'));
    maxp.writeUInt16BE(order.length, 4);
    // post format 3: the header only, no glyph names.
    const post = Buffer.from(this.table('post').subarray(0, 32));
    post.writeUInt32BE(0x00030000, 0);
    const tables = new Map<string, Buffer>([
      ['glyf', Buffer.concat(outlines)],
      ['head', head],
      ['hhea', hhea],
      ['hmtx', hmtx],
      ['loca', loca],
      ['maxp', maxp],
      ['post', post],
    ]);
    for (const tag of KEPT_TABLES) if (this.tables.has(tag)) tables.set(tag, Buffer.from(this.table(tag)));
    return { file: writeFontFile(tables), newGlyph };
  }
}

/** A TrueType file of these tables: the table directory sorted by tag, each table 4-byte aligned. */
function writeFontFile(tables: ReadonlyMap<string, Buffer>): Buffer {
  const tags = [...tables.keys()].sort();
  const count = tags.length;
  const power = 2 ** Math.floor(Math.log2(count));
  const header = Buffer.alloc(12 + 16 * count);
  header.writeUInt32BE(0x00010000, 0);
  header.writeUInt16BE(count, 4);
  header.writeUInt16BE(power * 16, 6);
  header.writeUInt16BE(Math.log2(power), 8);
  header.writeUInt16BE(count * 16 - power * 16, 10);
  const bodies: Buffer[] = [];
  let offset = header.length;
  tags.forEach((tag, index) => {
    const data = tables.get(tag) as Buffer;
    const at = 12 + 16 * index;
    header.write(tag, at, 'latin1');
    header.writeUInt32BE(checksum(data), at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(data.length, at + 12);
    const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)]);
    bodies.push(padded);
    offset += padded.length;
  });
  const file = Buffer.concat([header, ...bodies]);
  // head.checkSumAdjustment: the whole file then sums to 0xB1B0AFBA.
  const headAt = header.readUInt32BE(12 + 16 * tags.indexOf('head') + 8);
  file.writeUInt32BE((0xb1b0afba - checksum(file)) >>> 0, headAt + 8);
  return file;
}
