import { deflateSync } from 'node:zlib';
import type { TranscriptDocument, TranscriptParagraph } from './transcript-document';

/**
 * A transcript as a PDF 1.4 file written by hand: A4 pages, the standard Helvetica and Helvetica-Bold
 * fonts (every reader has them, nothing embedded) in WinAnsi encoding, text wrapped to the page by the
 * fonts' real widths, as many pages as it takes with "Page n of m" at the foot, compressed content
 * streams and a cross-reference table of byte offsets.
 *
 * WinAnsi (Windows-1252) holds Western European text. Other characters are transliterated where Unicode
 * decomposes them to a base letter (ő → o, ą → a, ﬁ → fi) or by a short table (ł → l, − → -); the rest
 * (日本語, emoji) print as "?". The title in the document's information stays in full (UTF-16).
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

/** A piece of a line in one font and colour. */
interface Piece {
  font: Font;
  grey: boolean;
  bytes: number[];
}

interface Line {
  pieces: Piece[];
  size: number;
  /** Space above the line's baseline, from the previous line's baseline. */
  lead: number;
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

/**
 * Wraps runs of text into lines `width` points wide: breaks at spaces; a word wider than a line is cut
 * where it has to be.
 */
export function wrapRuns(
  runs: readonly { font: Font; grey: boolean; text: string }[],
  size: number,
  width: number,
): Piece[][] {
  // Words, each remembering its run's font; a space is kept at the end of the word before it.
  const words: Piece[] = [];
  for (const { font, grey, text } of runs) {
    for (const part of text.split(/(?<= )/)) {
      const bytes = toWinAnsi(part);
      if (bytes.length > 0) words.push({ font, grey, bytes });
    }
  }
  const lines: Piece[][] = [];
  let line: Piece[] = [];
  let used = 0;
  const push = (piece: Piece) => {
    const last = line.at(-1);
    if (last && last.font === piece.font && last.grey === piece.grey) last.bytes.push(...piece.bytes);
    else line.push({ ...piece, bytes: [...piece.bytes] });
    used += widthOf(piece.bytes, piece.font, size);
  };
  const flush = () => {
    if (line.length > 0) lines.push(line);
    line = [];
    used = 0;
  };
  for (const word of words) {
    const trimmed = word.bytes.at(-1) === 32 ? word.bytes.slice(0, -1) : word.bytes;
    if (used > 0 && used + widthOf(trimmed, word.font, size) > width) flush();
    if (widthOf(trimmed, word.font, size) <= width) {
      push(word);
      continue;
    }
    for (const byte of word.bytes) {
      if (used > 0 && used + widthOf([byte], word.font, size) > width) flush();
      push({ ...word, bytes: [byte] });
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
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i += 1)
    hex += text.charCodeAt(i).toString(16).padStart(4, '0').toUpperCase();
  return `<${hex}>`;
}

/** The document's lines, laid out onto pages. */
function layOut(document: TranscriptDocument): Line[][] {
  const lines: Line[] = [];
  for (const pieces of wrapRuns([{ font: 'F2', grey: false, text: document.title }], 18, TEXT_WIDTH)) {
    lines.push({ pieces, size: 18, lead: 22 });
  }
  for (const pieces of wrapRuns([{ font: 'F1', grey: true, text: document.details }], 9.5, TEXT_WIDTH)) {
    lines.push({ pieces, size: 9.5, lead: 14 });
  }
  let gap = 12;
  for (const paragraph of document.paragraphs) {
    for (const pieces of wrapRuns(paragraphRuns(paragraph), BODY_SIZE, TEXT_WIDTH)) {
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

function pageContent(lines: readonly Line[], pageNumber: number, pageCount: number): string {
  const ops: string[] = [];
  let y = PAGE_HEIGHT - MARGIN_TOP;
  for (const line of lines) {
    y -= line.lead;
    ops.push(`BT ${MARGIN_X} ${y.toFixed(2)} Td`);
    for (const piece of line.pieces) {
      ops.push(
        `/${piece.font} ${line.size} Tf ${piece.grey ? '0.4 0.4 0.4' : '0 0 0'} rg ${pdfString(piece.bytes)} Tj`,
      );
    }
    ops.push('ET');
  }
  const footer = toWinAnsi(`Page ${pageNumber} of ${pageCount}`);
  const footerX = PAGE_WIDTH - MARGIN_X - widthOf(footer, 'F1', 9);
  ops.push(`BT ${footerX.toFixed(2)} 40 Td /F1 9 Tf 0.4 0.4 0.4 rg ${pdfString(footer)} Tj ET`);
  return ops.join('\n');
}

/** The .pdf file's bytes. */
export function writePdf(document: TranscriptDocument): Buffer {
  const pages = layOut(document);
  // Objects: 1 catalog, 2 page tree, 3 and 4 the fonts, 5 the information, then a page and its content each.
  const objects: Buffer[] = [];
  const object = (body: string | Buffer) =>
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
  const pageIds = pages.map((_, index) => 6 + index * 2);
  object('<< /Type /Catalog /Pages 2 0 R >>');
  object(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  object('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  object('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  object(`<< /Title ${pdfTextString(document.title)} /Producer (Parla) >>`);
  pages.forEach((lines, index) => {
    const id = pageIds[index] as number;
    object(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${id + 1} 0 R >>`,
    );
    const stream = deflateSync(Buffer.from(pageContent(lines, index + 1, pages.length), 'latin1'));
    object(
      Buffer.concat([
        Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
        stream,
        Buffer.from('\nendstream', 'latin1'),
      ]),
    );
  });

  // The header's second line holds bytes above 127, telling transfer programs the file is binary.
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xE2\xE3\xCF\xD3\n', 'latin1')];
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
