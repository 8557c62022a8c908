import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { notFound } from '../../platform/errors';

/*
 * The embeddable player (issue 30 item 4): `GET /audio-native.js` and `GET /audio-native.css`, public and
 * cacheable, read once at start-up from embed/ beside this file (or, from the bundle in dist/, from the
 * source tree it was built from), as the conversational widget's script is. The stylesheet is also
 * inlined into the script, which adopts it as a constructable stylesheet; the .css file is the fallback
 * for browsers without them.
 */

const DIR = 'embed';
const PLACEHOLDER = "'/*AUDIO_NATIVE_CSS*/'";

function findEmbedDir(): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    for (const candidate of [path.join(dir, DIR), path.join(dir, 'src/modules/audio-native', DIR)])
      if (fs.existsSync(path.join(candidate, 'audio-native.js'))) return candidate;
    dir = path.dirname(dir);
  }
  return undefined;
}

/** The script as served (its stylesheet inlined) and the stylesheet; undefined when the files are missing. */
export function readEmbedScript(): { script: string; css: string } | undefined {
  const dir = findEmbedDir();
  if (!dir) return undefined;
  const css = fs.readFileSync(path.join(dir, 'audio-native.css'), 'utf8').trim();
  const source = fs.readFileSync(path.join(dir, 'audio-native.js'), 'utf8');
  if (!source.includes(PLACEHOLDER)) throw new Error('audio-native.js lost its stylesheet placeholder');
  return { script: source.replace(PLACEHOLDER, () => JSON.stringify(css)), css };
}

export async function embedScriptRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'logger'>): Promise<void> {
  const files = readEmbedScript();
  if (!files) deps.logger.error(`${DIR}/audio-native.js not found: /audio-native.js answers 404`);
  const serve =
    (file: 'script' | 'css', type: string) =>
    async (_request: unknown, reply: import('fastify').FastifyReply) => {
      if (!files) throw notFound('The Audio Native player');
      return (
        reply
          .type(type)
          // Any page may load it (the snippet is pasted anywhere); CORP cross-origin in place of helmet's
          // same-origin; an hour in caches, so an upgrade reaches pages soon.
          .header('access-control-allow-origin', '*')
          .header('cross-origin-resource-policy', 'cross-origin')
          .header('cache-control', 'public, max-age=3600')
          .send(files[file])
      );
    };
  app.get('/audio-native.js', { schema: { hide: true } }, serve('script', 'text/javascript; charset=utf-8'));
  app.get('/audio-native.css', { schema: { hide: true } }, serve('css', 'text/css; charset=utf-8'));
}
