import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { notFound } from '../../platform/errors';
import { renderLicencesPage } from './licences.page';

/** The repository's root: the folder above this file (source or bundle) that holds LICENSE. */
export function findLicenceFiles(): { notices: string; licence: string } | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const notices = path.join(dir, 'THIRD_PARTY_NOTICES.txt');
    const licence = path.join(dir, 'LICENSE');
    if (fs.existsSync(notices) && fs.existsSync(licence)) {
      return { notices: fs.readFileSync(notices, 'utf8'), licence: fs.readFileSync(licence, 'utf8') };
    }
    dir = path.dirname(dir);
  }
  return undefined;
}

/**
 * `GET /licenses` (HTML) and `GET /licenses.txt` (the third-party notices as plain text), public: Parla's
 * licence and what it ships under whose (issue 18 item 9). Read once at start-up.
 */
export async function licencesRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'logger'>): Promise<void> {
  const files = findLicenceFiles();
  if (!files) deps.logger.error('LICENSE or THIRD_PARTY_NOTICES.txt not found: /licenses answers 404');
  const page = files ? renderLicencesPage(files) : undefined;
  app.get('/licenses', { schema: { hide: true } }, async (_request, reply) => {
    if (!page) throw notFound('The licences page');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
  });
  app.get('/licenses.txt', { schema: { hide: true } }, async (_request, reply) => {
    if (!files) throw notFound('The third-party notices');
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(files.notices);
  });
  app.get('/licenses/agpl-3.0.txt', { schema: { hide: true } }, async (_request, reply) => {
    if (!files) throw notFound("Parla's licence");
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(files.licence);
  });
}
