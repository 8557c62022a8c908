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

/**
 * `attachment; filename=…` with the UTF-8 form too (RFC 6266): an ASCII fallback (other characters,
 * quotes and backslashes as `_`) and the real name, for a file the browser should save.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
