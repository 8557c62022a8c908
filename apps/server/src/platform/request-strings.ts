import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

/**
 * The one character no text column can hold (issue 16 "Strings are validated once, everywhere"): NUL,
 * which PostgreSQL refuses in text and jsonb (every other code point is stored; a lone UTF-16 surrogate
 * reaches the database as U+FFFD, as the text-to-speech alignment has always answered it).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is looked for
const UNSTORABLE = /\u0000/;

/** Whether a string holds a character no text column can store. */
export function hasUnstorableCharacter(value: string): boolean {
  return UNSTORABLE.test(value);
}

const MESSAGE = 'contains a NUL character, which cannot be stored';

/** The first place in a parsed value (JSON body, query object) whose key or string has one, as a path. */
export function findUnstorable(
  value: unknown,
  path: (string | number)[] = [],
): (string | number)[] | undefined {
  if (typeof value === 'string') return hasUnstorableCharacter(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnstorable(item, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (hasUnstorableCharacter(key)) return [...path, key];
      const found = findUnstorable(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/** A 422 `invalid_request` for an unstorable character at `loc`. */
export function unstorableAt(loc: (string | number)[]): AppError {
  const where = loc.join('.');
  return new AppError('invalid_request', `Invalid request: ${where}: ${MESSAGE}`, {
    errors: [{ loc, msg: `Value ${MESSAGE}`, type: 'value_error' }],
  });
}

/**
 * The shared pipeline's check, before any work: a path parameter with such a character names nothing
 * (404 `not_found`); one in the query or a header is 422 `invalid_request` (before authentication, so a
 * forged key is never looked up); one in a parsed body is 422 before validation. Multipart fields are
 * checked where the form is read (multipart.ts).
 */
export function registerStringChecks(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const params = findUnstorable(request.params);
    if (params) {
      const path = request.url.split('?')[0] ?? request.url;
      throw new AppError('not_found', `Nothing matches ${request.method} ${path}.`);
    }
    const query = findUnstorable(request.query);
    if (query) throw unstorableAt(['query', ...query]);
    for (const [name, value] of Object.entries(request.headers)) {
      const values = Array.isArray(value) ? value : [value];
      if (values.some((v) => typeof v === 'string' && hasUnstorableCharacter(v)))
        throw unstorableAt(['header', name]);
    }
  });
  app.addHook('preValidation', async (request) => {
    const body = findUnstorable(request.body);
    if (body) throw unstorableAt(['body', ...body]);
  });
}
