import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Storage } from './storage';

/** A byte range [start, end] (inclusive) of a file of `size` bytes. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The range a `Range` header asks for (RFC 9110 §14.1.2; one range only): `bytes=a-b`, `bytes=a-` or the
 * suffix `bytes=-n`, clamped to the file. `undefined` for no header, or one this does not serve (several
 * ranges, other units) — the whole file then goes out; `'unsatisfiable'` when it starts past the end.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return undefined;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return undefined;
  return { start, end };
}

/**
 * Sends a stored file, whole (200) or the byte range asked for (206) — players such as Safari's need
 * ranges to play and seek an `<audio src>`. Answers the stream to return from the handler.
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: Storage,
  file: { key: string; size: number; contentType: string; cacheControl: string },
): Promise<NodeJS.ReadableStream | Buffer> {
  const range = parseRange(request.headers.range, file.size);
  reply
    .header('content-type', file.contentType)
    .header('accept-ranges', 'bytes')
    .header('cache-control', file.cacheControl);
  if (range === 'unsatisfiable') {
    reply.code(416).header('content-range', `bytes */${file.size}`);
    return Buffer.alloc(0);
  }
  const stream = await storage.stream(file.key, range);
  if (!stream) throw new Error(`stored file ${file.key} vanished while it was being sent`);
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('content-length', String(range.end - range.start + 1));
  } else {
    reply.header('content-length', String(file.size));
  }
  return stream;
}

/** Latin letters NFKD does not take apart, as their usual ASCII spelling (for the fallback name only). */
const ASCII_SPELLINGS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'TH',
  ı: 'i',
};

/**
 * A file name in printable ASCII for clients that read only `filename=`: accents dropped from their
 * letters ("Lucía" → "Lucia", "Straße" → "Strasse"); what has no Latin spelling, and the quote and
 * backslash a quoted-string would need escaped, become `_`.
 */
export function asciiFileName(fileName: string): string {
  return fileName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/gu, (c) => ASCII_SPELLINGS[c] ?? '_')
    .replace(/["\\]/g, '_');
}

/** A UTF-16 unit with no partner: encodeURIComponent throws on it (String#toWellFormed is ES2024). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** RFC 5987 §3.2.1 ext-value: UTF-8 percent-encoded, `'()*` too, which encodeURIComponent leaves. */
const extValue = (text: string) =>
  encodeURIComponent(text.replace(LONE_SURROGATE, '\uFFFD')).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/**
 * A Content-Disposition (RFC 6266 §4.3) for a file the browser saves (`attachment`) or shows (`inline`):
 * the real name in `filename*=UTF-8''…` (RFC 5987), which browsers prefer, and an ASCII `filename=`
 * fallback for clients that read only that (issue 26 item 7: "Lucía" was saved as "Luca").
 */
export function attachmentDisposition(
  fileName: string,
  type: 'attachment' | 'inline' = 'attachment',
): string {
  return `${type}; filename="${asciiFileName(fileName)}"; filename*=UTF-8''${extValue(fileName)}`;
}
