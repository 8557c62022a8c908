import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors';

/**
 * How deep a JSON body may nest: each `{` or `[` opens a level (issue 26 item 9). The bodies the contracts
 * declare are shallow (the deepest, text to speech's and a webhook's, reach 3 levels), so 64 leaves room for
 * what the next capabilities bring (an agent's tool schemas nest) while bounding every walk over a body.
 */
export const JSON_MAX_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether JSON text opens more than `max` levels at some point, in one linear scan that skips strings
 * (a bracket inside a string opens nothing). It does not validate: JSON.parse does that afterwards. Bytes
 * and UTF-16 code units give the same answer, since no byte of a multi-byte UTF-8 sequence is ASCII.
 */
export function jsonNestsDeeperThan(text: string | Uint8Array, max: number): boolean {
  const length = text.length;
  const at = typeof text === 'string' ? (i: number) => text.charCodeAt(i) : (i: number) => text[i] as number;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < length; i++) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

/** The 400 for a body that nests deeper than JSON_MAX_DEPTH. */
export function jsonTooDeep(): AppError {
  return new AppError(
    'malformed_request',
    `The request body nests deeper than ${JSON_MAX_DEPTH} levels; JSON bodies nest at most ${JSON_MAX_DEPTH} levels.`,
  );
}

/**
 * The app's application/json parser: Fastify's own (empty body, invalid JSON and prototype poisoning
 * answered as before), after a depth check on the raw text, so no deeply nested value is ever built or
 * walked (a body nested 5,000 levels deep overflowed the stack of the string walk: a 500 on every JSON
 * route). A scope that needs the raw bytes (the Stripe webhook) replaces it and checks the depth itself.
 */
export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done) => {
      if (jsonNestsDeeperThan(body, JSON_MAX_DEPTH)) {
        done(jsonTooDeep(), undefined);
        return;
      }
      parse(request, body as string, done);
    },
  );
}
