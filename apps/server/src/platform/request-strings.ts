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

/** A place in a parsed value: its key in its parent, kept as a chain so a path is built only when needed. */
interface Place {
  parent: Place | undefined;
  key: string | number;
}

function pathOf(base: (string | number)[], place: Place | undefined): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let at = place; at; at = at.parent) keys.push(at.key);
  return [...base, ...keys.reverse()];
}

/**
 * The first place in a parsed value (JSON body, query object) whose key or string has one, as a path.
 * Iterative and linear in the value's size: a recursive walk that copied its path at every level overflowed
 * the stack on a body nested 5,000 levels deep and spent 0.5 s of CPU just below that (issue 26 item 9;
 * the JSON parser now refuses bodies deeper than JSON_MAX_DEPTH before this runs, json-depth.ts).
 */
export function findUnstorable(
  value: unknown,
  path: (string | number)[] = [],
): (string | number)[] | undefined {
  // Depth first, in order: a key is checked before its value, and children are pushed last-first.
  const stack: { value: unknown; place: Place | undefined; checkKey: boolean }[] = [
    { value, place: undefined, checkKey: false },
  ];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value: item, place } = next;
    if (next.checkKey && place && typeof place.key === 'string' && hasUnstorableCharacter(place.key))
      return pathOf(path, place);
    if (typeof item === 'string') {
      if (hasUnstorableCharacter(item)) return pathOf(path, place);
    } else if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index--)
        stack.push({ value: item[index], place: { parent: place, key: index }, checkKey: false });
    } else if (item && typeof item === 'object' && !Buffer.isBuffer(item)) {
      const entries = Object.entries(item);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, child] = entries[index] as [string, unknown];
        stack.push({ value: child, place: { parent: place, key }, checkKey: true });
      }
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
