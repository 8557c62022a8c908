import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { deflateSync } from 'node:zlib';
import type { TranscriptDocument, TranscriptParagraph } from './transcript-document';
import { TrueTypeFont } from './truetype-font';
import { visualClusters } from './visual-text';

/**
 * A transcript as a PDF file written by hand (decision record 0014): A4 pages, text wrapped to the page by
 * the fonts' real widths, as many pages as it takes with "Page n of m" at the foot, compressed content
 * streams and a cross-reference table of byte offsets.
 *
 * The text is set in DejaVu Sans and DejaVu Sans Bold (Debian's fonts-dejavu-core), each embedded as a
 * CID font (Type0, CIDFontType2, Identity-H) subset to the glyphs the document uses, with a ToUnicode map
 * so the text can be searched and copied: Latin, Greek, Cyrillic, Hebrew and Arabic (joined and read
 * right to left, visual-text.ts) print as written. A character DejaVu Sans has no glyph for (Chinese,
 * Japanese, Korean, most emoji) prints as the font's empty box and still copies as itself. Right-to-left
 * runs are drawn in visual order, as other writers draw them; readers put them back in reading order
 * when text is copied (poppler's pdftotext does, transcript-formats.test.ts).
 *
 * Without those font files (a system without the package) the file falls back to the
 * standard Helvetica and Helvetica-Bold (every reader has them, nothing embedded) in WinAnsi encoding:
 * Western European text as is, other letters transliterated where Unicode decomposes them to a base
 * letter (ő → o, ą → a, ﬁ → fi) or by a short table (ł → l, − → -), the rest (日本語, emoji) as "?". The
 * title in the document's information stays in full (UTF-16) either way.
 */

/**
 * Glyph widths (1/1000 em) of WinAnsi codes 32–255, from Adobe's font metrics (AFM) for Helvetica and
 * Helvetica-Bold; 0 for the codes WinAnsi leaves undefined.
 */
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556,
  556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278,
  500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469,
  556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
  278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 0, 556, 0, 222, 556, 333, 1000, 556, 556, 333, 1000,
  667, 333, 1000, 0, 611, 0, 0, 222, 222, 333, 333, 350, 556, 1000, 333, 1000, 500, 333, 944, 0, 500, 667,
  278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333, 400, 584, 333, 333, 333,
  578, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611, 667, 667, 667, 667, 667, 667, 1000, 722, 667, 667,
  667, 667, 278, 278, 278, 278, 722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667,
  611, 556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278, 556, 556, 556, 556,
  556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500,
];
const HELVETICA_BOLD = [
  278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556,
  556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667, 611, 778, 722, 278,
  556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584,
  556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556,
  333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584, 0, 556, 0, 278, 556, 500, 1000, 556, 556, 333, 1000,
  667, 333, 1000, 0, 611, 0, 0, 278, 278, 500, 500, 350, 556, 1000, 333, 1000, 556, 333, 944, 0, 500, 667,
  278, 333, 556, 556, 556, 556, 280, 556, 333, 737, 370, 556, 584, 333, 737, 333, 400, 584, 333, 333, 333,
  611, 556, 278, 333, 333, 365, 556, 834, 834, 834, 611, 722, 722, 722, 722, 722, 722, 1000, 722, 667, 667,
  667, 667, 278, 278, 278, 278, 722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667,
  611, 556, 556, 556, 556, 556, 556, 889, 556, 556, 556, 556, 556, 278, 278, 278, 278, 611, 611, 611, 611,
  611, 611, 611, 584, 611, 611, 611, 611, 611, 556, 611, 556,
];

/** The characters of WinAnsi's bytes 0x80–0x9F (Windows-1252; the other bytes are Latin-1's). */
const WIN_ANSI_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

/** Unicode → WinAnsi byte, for the 217 characters WinAnsi has. */
const WIN_ANSI: ReadonlyMap<string, number> = (() => {
  const map = new Map<string, number>();
  for (let code = 32; code <= 255; code += 1) {
    if ((HELVETICA[code - 32] ?? 0) === 0) continue; // undefined in WinAnsi
    const char = code >= 0x80 && code <= 0x9f ? WIN_ANSI_HIGH.charAt(code - 0x80) : String.fromCharCode(code);
    map.set(char, code);
  }
  return map;
})();

/** Letters and signs Unicode does not decompose to a WinAnsi character, by their nearest ASCII. */
const NEAREST: Readonly<Record<string, string>> = {
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŧ: 't',
  Ŧ: 'T',
  ĸ: 'k',
  ŋ: 'n',
  Ŋ: 'N',
  ſ: 's',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2015': '—',
  '\u2212': '-',
  '\u2032': "'",
  '\u2033': '"',
  '\u201B': "'",
  '\u201F': '"',
  '\u2027': '·',
  '\u2043': '-',
};

/** Zero-width characters: dropped rather than shown as "?". */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/u;

/** Text as WinAnsi bytes: kept, transliterated or "?" (see the file's header). */
export function toWinAnsi(text: string): number[] {
  const bytes: number[] = [];
  for (const char of text) {
    const code = WIN_ANSI.get(char);
    if (code !== undefined) {
      bytes.push(code);
      continue;
    }
    if (INVISIBLE.test(char)) continue;
    if (/\s/u.test(char)) {
      bytes.push(32);
      continue;
    }
    const nearest = NEAREST[char] ?? char.normalize('NFKD').replace(/\p{M}/gu, '');
    const mapped = [...nearest].map((part) => WIN_ANSI.get(part));
    if (nearest && nearest !== char && mapped.every((byte) => byte !== undefined)) {
      bytes.push(...(mapped as number[]));
    } else if (nearest !== '') {
      bytes.push(63); // ?
    }
  }
  return bytes;
}

type Font = 'F1' | 'F2';

/** A piece of a line in one font and colour, in logical order. */
export interface Piece {
  font: Font;
  grey: boolean;
  text: string;
}

interface Line {
  pieces: Piece[];
  size: number;
  /** Space above the line's baseline, from the previous line's baseline. */
  lead: number;
}

/**
 * How a document's text becomes PDF text: measured to wrap it, then written as text-showing operators.
 * The embedded face collects the glyphs it shows, so its fonts' objects are written after every page.
 */
interface PdfFace {
  /** A text's width, in thousandths of the font size. */
  width(text: string, font: Font): number;
  /** Whether a text shows anything (WinAnsi drops what it cannot write). */
  draws(text: string): boolean;
  /** The operators that show a text at the current point. */
  show(text: string, font: Font): string;
  /** The font dictionaries of F1 and F2; `next` is the first free object number for what they refer to. */
  fontObjects(next: number): { fonts: [string, string]; more: (string | Buffer)[] };
}

/** The standard fonts in WinAnsi: nothing embedded (the fallback, see the file's header). */
const HELVETICA_FACE: PdfFace = {
  width: (text, font) => widthOf(toWinAnsi(text), font, 1000),
  draws: (text) => toWinAnsi(text).length > 0,
  show: (text) => `${pdfString(toWinAnsi(text))} Tj`,
  fontObjects: () => ({
    fonts: [
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    ],
    more: [],
  }),
};

/** The fonts of the embedded face: F1 the text, F2 the title and speakers. */
export interface PdfFonts {
  F1: TrueTypeFont;
  F2: TrueTypeFont;
}

/** Debian's fonts-dejavu-core (a runtime package in scripts/install-system-deps.sh). */
export const PDF_FONT_FILES: Readonly<Record<Font, string>> = {
  F1: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  F2: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
};

let loadedFonts: { fonts?: PdfFonts; problem?: string } | undefined;

/** The embedded face's fonts, read once per process; undefined when they cannot be read. */
export function defaultPdfFonts(): PdfFonts | undefined {
  if (!loadedFonts) {
    try {
      loadedFonts = {
        fonts: {
          F1: new TrueTypeFont(fs.readFileSync(PDF_FONT_FILES.F1)),
          F2: new TrueTypeFont(fs.readFileSync(PDF_FONT_FILES.F2)),
        },
      };
    } catch (error) {
      loadedFonts = { problem: (error as Error).message };
    }
  }
  return loadedFonts.fonts;
}

let fontProblemReported = false;

/**
 * Says once per process, at start, when the PDF exports will fall back to Helvetica because the font
 * files are missing (the check reads no font: only whether the files are there).
 */
export function reportPdfFontProblem(
  logger: { warn(message: string): void },
  files: Readonly<Record<Font, string>> = PDF_FONT_FILES,
): void {
  if (fontProblemReported) return;
  const missing = Object.values(files).filter((file) => !fs.existsSync(file));
  if (missing.length === 0) return;
  fontProblemReported = true;
  logger.warn(
    `PDF transcript exports fall back to Helvetica (Western European letters only): ${missing.join(', ')} not found; install fonts-dejavu-core (scripts/install-system-deps.sh).`,
  );
}

/** Zero-width characters and controls: not drawn (the joiners are kept until Arabic is shaped). */
const NOT_DRAWN = /\p{Cc}|\u200B|\u200C|\u200D|\u2060|\uFEFF/u;

/** One glyph as shown: its glyph in the font and the text it stands for. */
interface ShownGlyph {
  glyph: number;
  source: string;
}

/** A text's glyphs in the order they are drawn (see visual-text.ts), each with the text it stands for. */
function glyphsOf(text: string, font: TrueTypeFont): ShownGlyph[] {
  const glyphs: ShownGlyph[] = [];
  for (const cluster of visualClusters(text)) {
    const shown = [...cluster.shown].filter((char) => !NOT_DRAWN.test(char));
    if (shown.length === 0) continue;
    const marks = shown.slice(1);
    // The first glyph stands for the cluster's letters (two for a lam-alef ligature), each mark for itself.
    // Readers reverse a right-to-left run's text, a ligature's letters with it: they are given reversed.
    const letters = [...cluster.source].filter((char) => !marks.includes(char) && !NOT_DRAWN.test(char));
    if (cluster.reversed) letters.reverse();
    shown.forEach((char, index) => {
      glyphs.push({
        glyph: font.glyphOf(char.codePointAt(0) as number),
        source: index === 0 ? letters.join('') || char : char,
      });
    });
  }
  return glyphs;
}

/** UTF-16BE as hex, for a ToUnicode entry or a text string. */
function utf16Hex(text: string): string {
  let hex = '';
  for (let i = 0; i < text.length; i += 1)
    hex += text.charCodeAt(i).toString(16).padStart(4, '0').toUpperCase();
  return hex;
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0').toUpperCase();

/** The DejaVu fonts embedded as subset CID fonts (see the file's header); one per document. */
class EmbeddedFace implements PdfFace {
  /** Per font: the CID of each glyph-and-text shown (from 1; CID 0 is `.notdef`), in order of first use. */
  private readonly cids: Record<Font, Map<string, { cid: number; glyph: number; source: string }>> = {
    F1: new Map(),
    F2: new Map(),
  };

  /** Each word's glyphs, per font: a transcript repeats its words, and each is measured and then shown. */
  private readonly shaped: Record<Font, Map<string, ShownGlyph[]>> = { F1: new Map(), F2: new Map() };

  constructor(private readonly fonts: PdfFonts) {}

  private glyphs(text: string, font: Font): ShownGlyph[] {
    let glyphs = this.shaped[font].get(text);
    if (!glyphs) {
      glyphs = glyphsOf(text, this.fonts[font]);
      this.shaped[font].set(text, glyphs);
    }
    return glyphs;
  }

  width(text: string, font: Font): number {
    const file = this.fonts[font];
    const units = this.glyphs(text, font).reduce((sum, g) => sum + file.advanceOf(g.glyph), 0);
    return (units * 1000) / file.unitsPerEm;
  }

  draws(text: string): boolean {
    return [...text].some((char) => !NOT_DRAWN.test(char));
  }

  show(text: string, font: Font): string {
    const used = this.cids[font];
    let codes = '';
    for (const { glyph, source } of this.glyphs(text, font)) {
      const key = `${glyph}:${source}`;
      let entry = used.get(key);
      if (!entry) {
        entry = { cid: used.size + 1, glyph, source };
        used.set(key, entry);
      }
      codes += hex4(entry.cid);
    }
    return `<${codes}> Tj`;
  }

  fontObjects(next: number): { fonts: [string, string]; more: (string | Buffer)[] } {
    const more: (string | Buffer)[] = [];
    const fonts = (['F1', 'F2'] as const).map((font) => {
      const id = next + more.length;
      more.push(...this.cidFont(font, id));
      return `<< /Type /Font /Subtype /Type0 /BaseFont /${this.baseFont(font)} /Encoding /Identity-H /DescendantFonts [${id} 0 R] /ToUnicode ${id + 3} 0 R >>`;
    });
    return { fonts: fonts as [string, string], more };
  }

  /** The subset's PostScript name: a tag made from the glyphs it holds, then the font's name. */
  private baseFont(font: Font): string {
    const glyphs = [...this.cids[font].values()].map((e) => e.glyph).join(',');
    const digest = createHash('sha256').update(`${font}:${glyphs}`).digest();
    const tag = [...digest.subarray(0, 6)].map((byte) => String.fromCharCode(65 + (byte % 26))).join('');
    return `${tag}+${font === 'F1' ? 'DejaVuSans' : 'DejaVuSans-Bold'}`;
  }

  /** A CIDFontType2 at object `id`, then its descriptor, font file, ToUnicode map and CID-to-glyph map. */
  private cidFont(font: Font, id: number): (string | Buffer)[] {
    const file = this.fonts[font];
    const entries = [...this.cids[font].values()];
    const { file: subset, newGlyph } = file.subset(entries.map((e) => e.glyph));
    const scale = (units: number) => Math.round((units * 1000) / file.unitsPerEm);
    const widths = entries.map((e) => scale(file.advanceOf(e.glyph)));
    const cidToGid = Buffer.alloc((entries.length + 1) * 2);
    for (const e of entries) cidToGid.writeUInt16BE(newGlyph.get(e.glyph) ?? 0, e.cid * 2);
    const [x0, y0, x1, y1] = file.bbox.map(scale) as [number, number, number, number];
    const capHeight = scale(file.glyphTop(file.glyphOf(0x48))); // H
    const name = this.baseFont(font);
    return [
      `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${name} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${id + 1} 0 R /DW ${scale(file.advanceOf(0))}${widths.length > 0 ? ` /W [1 [${widths.join(' ')}]]` : ''} /CIDToGIDMap ${id + 4} 0 R >>`,
      `<< /Type /FontDescriptor /FontName /${name} /Flags 32 /FontBBox [${x0} ${y0} ${x1} ${y1}] /ItalicAngle 0 /Ascent ${scale(file.ascent)} /Descent ${scale(file.descent)} /CapHeight ${capHeight} /StemV ${font === 'F2' ? 140 : 80} /FontFile2 ${id + 2} 0 R >>`,
      streamObject(subset, `/Length1 ${subset.length}`),
      streamObject(Buffer.from(toUnicodeCMap(entries), 'latin1')),
      streamObject(cidToGid),
    ];
  }
}

/** The ToUnicode CMap (PDF 1.7 §9.10.3): each CID to the text its glyph stands for. */
function toUnicodeCMap(entries: readonly { cid: number; source: string }[]): string {
  const lines = [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
  ];
  // At most 100 entries a block (the CMap format's limit).
  for (let at = 0; at < entries.length; at += 100) {
    const block = entries.slice(at, at + 100);
    lines.push(`${block.length} beginbfchar`);
    for (const e of block) lines.push(`<${hex4(e.cid)}> <${utf16Hex(e.source)}>`);
    lines.push('endbfchar');
  }
  lines.push('endcmap', 'CMapName currentdict /CMap defineresource pop', 'end', 'end');
  return lines.join('\n');
}

/** A compressed stream object; `extra` entries go into its dictionary. */
function streamObject(data: Buffer, extra = ''): Buffer {
  const stream = deflateSync(data);
  return Buffer.concat([
    Buffer.from(
      `<< /Length ${stream.length}${extra ? ` ${extra}` : ''} /Filter /FlateDecode >>\nstream\n`,
      'latin1',
    ),
    stream,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN_X = 64;
const MARGIN_TOP = 72;
const MARGIN_BOTTOM = 72;
const TEXT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;
const BODY_SIZE = 11;
const BODY_LEAD = 15;
const PARAGRAPH_GAP = 7;

const widthOf = (bytes: readonly number[], font: Font, size: number) =>
  (bytes.reduce((sum, byte) => sum + ((font === 'F2' ? HELVETICA_BOLD : HELVETICA)[byte - 32] ?? 556), 0) *
    size) /
  1000;

/** Text as the PDF writes it: composed (NFC), every kind of space a space. */
const cleanText = (text: string) => text.normalize('NFC').replace(/\s/gu, ' ');

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Wraps runs of text into lines `width` points wide: breaks at spaces; a word wider than a line is cut
 * between its characters where it has to be.
 */
export function wrapRuns(
  runs: readonly { font: Font; grey: boolean; text: string }[],
  size: number,
  width: number,
  face: PdfFace = HELVETICA_FACE,
): Piece[][] {
  // Words, each remembering its run's font; a space is kept at the end of the word before it.
  const words: Piece[] = [];
  for (const { font, grey, text } of runs) {
    for (const part of cleanText(text).split(/(?<= )/)) {
      if (part !== '' && face.draws(part)) words.push({ font, grey, text: part });
    }
  }
  const measure = (text: string, font: Font) => (face.width(text, font) * size) / 1000;
  const lines: Piece[][] = [];
  let line: Piece[] = [];
  let used = 0;
  const push = (piece: Piece) => {
    const last = line.at(-1);
    if (last && last.font === piece.font && last.grey === piece.grey) last.text += piece.text;
    else line.push({ ...piece });
    used += measure(piece.text, piece.font);
  };
  const flush = () => {
    if (line.length > 0) lines.push(line);
    line = [];
    used = 0;
  };
  for (const word of words) {
    const trimmed = word.text.endsWith(' ') ? word.text.slice(0, -1) : word.text;
    if (used > 0 && used + measure(trimmed, word.font) > width) flush();
    if (measure(trimmed, word.font) <= width) {
      push(word);
      continue;
    }
    for (const { segment } of graphemes.segment(word.text)) {
      if (used > 0 && used + measure(segment, word.font) > width) flush();
      push({ ...word, text: segment });
    }
  }
  flush();
  return lines;
}

function paragraphRuns(paragraph: TranscriptParagraph) {
  return [
    ...(paragraph.time ? [{ font: 'F1' as const, grey: true, text: `[${paragraph.time}] ` }] : []),
    ...(paragraph.speaker ? [{ font: 'F2' as const, grey: false, text: `${paragraph.speaker}: ` }] : []),
    { font: 'F1' as const, grey: false, text: paragraph.text },
  ];
}

/** A string operand: printable ASCII as is, the rest as octal escapes, so the stream stays 7-bit. */
function pdfString(bytes: readonly number[]): string {
  let out = '(';
  for (const byte of bytes) {
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte >= 32 && byte < 127) out += String.fromCharCode(byte);
    else out += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `${out})`;
}

/** A text string of the document's information: UTF-16BE with its byte-order mark, as hex. */
function pdfTextString(text: string): string {
  return `<FEFF${utf16Hex(text)}>`;
}

/** The document's lines, laid out onto pages. */
function layOut(document: TranscriptDocument, face: PdfFace): Line[][] {
  const lines: Line[] = [];
  for (const pieces of wrapRuns([{ font: 'F2', grey: false, text: document.title }], 18, TEXT_WIDTH, face)) {
    lines.push({ pieces, size: 18, lead: 22 });
  }
  for (const pieces of wrapRuns(
    [{ font: 'F1', grey: true, text: document.details }],
    9.5,
    TEXT_WIDTH,
    face,
  )) {
    lines.push({ pieces, size: 9.5, lead: 14 });
  }
  let gap = 12;
  for (const paragraph of document.paragraphs) {
    for (const pieces of wrapRuns(paragraphRuns(paragraph), BODY_SIZE, TEXT_WIDTH, face)) {
      lines.push({ pieces, size: BODY_SIZE, lead: BODY_LEAD + gap });
      gap = 0;
    }
    gap = PARAGRAPH_GAP;
  }
  const pages: Line[][] = [[]];
  let y = PAGE_HEIGHT - MARGIN_TOP;
  for (const line of lines) {
    let page = pages.at(-1) as Line[];
    if (page.length > 0 && y - line.lead < MARGIN_BOTTOM) {
      page = [];
      pages.push(page);
      y = PAGE_HEIGHT - MARGIN_TOP;
    }
    // The first line of a page sits at the top margin, whatever gap came before it.
    const lead = page.length === 0 ? line.size : line.lead;
    y -= lead;
    page.push({ ...line, lead });
  }
  return pages;
}

function pageContent(lines: readonly Line[], pageNumber: number, pageCount: number, face: PdfFace): string {
  const ops: string[] = [];
  let y = PAGE_HEIGHT - MARGIN_TOP;
  for (const line of lines) {
    y -= line.lead;
    ops.push(`BT ${MARGIN_X} ${y.toFixed(2)} Td`);
    for (const piece of line.pieces) {
      ops.push(
        `/${piece.font} ${line.size} Tf ${piece.grey ? '0.4 0.4 0.4' : '0 0 0'} rg ${face.show(piece.text, piece.font)}`,
      );
    }
    ops.push('ET');
  }
  const footer = `Page ${pageNumber} of ${pageCount}`;
  const footerX = PAGE_WIDTH - MARGIN_X - (face.width(footer, 'F1') * 9) / 1000;
  ops.push(`BT ${footerX.toFixed(2)} 40 Td /F1 9 Tf 0.4 0.4 0.4 rg ${face.show(footer, 'F1')} ET`);
  return ops.join('\n');
}

/**
 * The .pdf file's bytes: in DejaVu Sans when `fonts` are given (by default the system's, read once), in
 * Helvetica when they are null or cannot be read (see the file's header).
 */
export function writePdf(
  document: TranscriptDocument,
  fonts: PdfFonts | null = defaultPdfFonts() ?? null,
): Buffer {
  const face = fonts ? new EmbeddedFace(fonts) : HELVETICA_FACE;
  const pages = layOut(document, face);
  const contents = pages.map((lines, index) => pageContent(lines, index + 1, pages.length, face));
  // Objects: 1 catalog, 2 page tree, 3 and 4 the fonts, 5 the information, then a page and its content
  // each, then what the fonts refer to.
  const objects: Buffer[] = [];
  const object = (body: string | Buffer) =>
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
  const pageIds = pages.map((_, index) => 6 + index * 2);
  const fontParts = face.fontObjects(6 + pages.length * 2);
  object('<< /Type /Catalog /Pages 2 0 R >>');
  object(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  object(fontParts.fonts[0]);
  object(fontParts.fonts[1]);
  object(`<< /Title ${pdfTextString(document.title)} /Producer (Parla) >>`);
  contents.forEach((content, index) => {
    const id = pageIds[index] as number;
    object(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${id + 1} 0 R >>`,
    );
    object(streamObject(Buffer.from(content, 'latin1')));
  });
  for (const part of fontParts.more) object(part);

  // The header's second line holds bytes above 127, telling transfer programs the file is binary.
  const parts: Buffer[] = [Buffer.from(`%PDF-1.4\n%\xE2\xE3\xCF\xD3\n`, 'latin1')];
  let offset = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(offset);
    const framed = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(framed);
    offset += framed.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>`,
    'startxref',
    String(offset),
    '%%EOF',
    '',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}
