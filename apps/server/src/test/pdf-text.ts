import { inflateSync } from 'node:zlib';

/*
 * The text of a PDF that modules/speech-to-text/pdf-writer.ts wrote, read back without a PDF library or an
 * outside program: each object found by the cross-reference table's offsets, each page's content stream
 * inflated, and each shown string decoded through its font — a ToUnicode CMap for an embedded CID font,
 * Windows-1252 for a standard font in WinAnsi. Lines come out as drawn, left to right (a right-to-left run
 * reversed, as a PDF draws it). Only what that writer writes is understood.
 */

export interface PdfText {
  /** Each page's lines, as drawn. */
  pages: string[][];
  /** Each font resource's dictionary, by name (F1, F2). */
  fonts: Record<string, string>;
}

/** Object `id`'s source (latin1), found through the cross-reference table. */
function objectsOf(pdf: Buffer): Map<number, { body: string; at: number }> {
  const source = pdf.toString('latin1');
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(source)?.[1]);
  const [, count] = /^xref\n0 (\d+)\n/.exec(source.slice(startxref)) ?? [];
  const entries = source
    .slice(startxref)
    .split('\n')
    .slice(3, 2 + Number(count));
  const objects = new Map<number, { body: string; at: number }>();
  entries.forEach((entry, index) => {
    const offset = Number(entry.slice(0, 10));
    const header = `${index + 1} 0 obj\n`;
    if (source.slice(offset, offset + header.length) !== header)
      throw new Error(`object ${index + 1} is not at its offset`);
    const end = source.indexOf('\nendobj\n', offset);
    objects.set(index + 1, { body: source.slice(offset + header.length, end), at: offset + header.length });
  });
  return objects;
}

/** A stream object's data, inflated. */
function streamOf(pdf: Buffer, object: { body: string; at: number }): Buffer {
  const match = /^<<(.*?)\/Length (\d+)(.*?)>>\nstream\n/s.exec(object.body);
  if (!match) throw new Error('not a stream');
  const start = object.at + match[0].length;
  const data = pdf.subarray(start, start + Number(match[2]));
  return /\/FlateDecode/.test(match[0]) ? inflateSync(data) : data;
}

const reference = (dictionary: string, key: string) =>
  Number(new RegExp(`/${key} (\\d+) 0 R`).exec(dictionary)?.[1]);

const utf16 = (hex: string) => {
  const units: number[] = [];
  for (let at = 0; at < hex.length; at += 4) units.push(Number.parseInt(hex.slice(at, at + 4), 16));
  return String.fromCharCode(...units);
};

/** A font's decoder: hex CIDs through its ToUnicode map, or WinAnsi bytes. */
function decoderOf(pdf: Buffer, objects: ReturnType<typeof objectsOf>, dictionary: string) {
  if (/\/Subtype \/Type0/.test(dictionary)) {
    const toUnicode = objects.get(reference(dictionary, 'ToUnicode'));
    if (!toUnicode) throw new Error('a CID font without ToUnicode');
    const cmap = streamOf(pdf, toUnicode).toString('latin1');
    const map = new Map<number, string>();
    for (const [, cid = '', text = ''] of cmap.matchAll(/<([0-9A-F]{4})> <([0-9A-F]+)>/g))
      map.set(Number.parseInt(cid, 16), utf16(text));
    return (hex: string) => {
      let out = '';
      for (let at = 0; at < hex.length; at += 4) {
        const cid = Number.parseInt(hex.slice(at, at + 4), 16);
        const text = map.get(cid);
        if (text === undefined) throw new Error(`CID ${cid} has no ToUnicode entry`);
        out += text;
      }
      return out;
    };
  }
  const winAnsi = new TextDecoder('windows-1252');
  return (bytes: string) => winAnsi.decode(Buffer.from(bytes, 'latin1'));
}

/** A literal string operand's bytes (as latin1): escapes undone. */
const literal = (operand: string) =>
  operand.replace(/\\([0-7]{3}|.)/g, (_, escaped: string) =>
    /^[0-7]{3}$/.test(escaped) ? String.fromCharCode(Number.parseInt(escaped, 8)) : escaped,
  );

export function readPdfText(pdf: Buffer): PdfText {
  const objects = objectsOf(pdf);
  const catalog = objects.get(1)?.body ?? '';
  const tree = objects.get(reference(catalog, 'Pages'))?.body ?? '';
  const kids = [...(/\/Kids \[([^\]]*)\]/.exec(tree)?.[1] ?? '').matchAll(/(\d+) 0 R/g)].map((m) =>
    Number(m[1]),
  );
  const fonts: Record<string, string> = {};
  const pages = kids.map((kid) => {
    const page = objects.get(kid)?.body ?? '';
    const decoders = new Map<string, (operand: string) => string>();
    for (const [, name = '', id = ''] of (/\/Font << (.*?) >>/.exec(page)?.[1] ?? '').matchAll(
      /\/(\w+) (\d+) 0 R/g,
    )) {
      const dictionary = objects.get(Number(id))?.body ?? '';
      fonts[name] = dictionary;
      decoders.set(name, decoderOf(pdf, objects, dictionary));
    }
    const content = streamOf(
      pdf,
      objects.get(reference(page, 'Contents')) as { body: string; at: number },
    ).toString('latin1');
    const lines: string[] = [];
    let line = '';
    let decode: ((operand: string) => string) | undefined;
    const operators = /BT|ET|\/(\w+) [\d.]+ Tf|<([0-9A-F]*)> Tj|\(((?:\\.|[^\\)])*)\) Tj/g;
    for (const [op, font, hex, text] of content.matchAll(operators)) {
      if (op === 'BT') line = '';
      else if (op === 'ET') lines.push(line);
      else if (font !== undefined) decode = decoders.get(font);
      else if (hex !== undefined) line += decode?.(hex) ?? '';
      else if (text !== undefined) line += decode?.(literal(text)) ?? '';
    }
    return lines;
  });
  return { pages, fonts };
}
