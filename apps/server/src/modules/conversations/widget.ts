import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { notFound } from '../../platform/errors';

/*
 * The embeddable widget's script (issue 28 item 7), `GET /convai-widget.js`: public and cacheable, read
 * once at start-up from widget/convai-widget.js beside this file (or, from the bundle in dist/, from the
 * source tree it was built from).
 */

const WIDGET = 'widget/convai-widget.js';

export function findWidgetScript(): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    for (const candidate of [path.join(dir, WIDGET), path.join(dir, 'src/modules/conversations', WIDGET)])
      if (fs.existsSync(candidate)) return fs.readFileSync(candidate, 'utf8');
    dir = path.dirname(dir);
  }
  return undefined;
}

export async function widgetRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'logger'>): Promise<void> {
  const script = findWidgetScript();
  if (!script) deps.logger.error(`${WIDGET} not found: /convai-widget.js answers 404`);
  app.get('/convai-widget.js', { schema: { hide: true } }, async (_request, reply) => {
    if (!script) throw notFound('The widget script');
    return (
      reply
        .type('text/javascript; charset=utf-8')
        // Any page may load it (it is the point); an hour in caches, so an upgrade reaches pages soon.
        .header('access-control-allow-origin', '*')
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('cache-control', 'public, max-age=3600')
        .send(script)
    );
  });
}
