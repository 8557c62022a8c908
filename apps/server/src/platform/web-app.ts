import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../app-deps';
import type { PageHead, WebPageHead } from './module';

/** Paths that belong to the API: an unknown one there is a JSON 404, never the web app. */
const API_PREFIXES = ['/v1/', '/v2/', '/api/', '/health', '/openapi.json', '/docs', '/dev/', '/licenses/'];

/** Finds the built web app: WEB_DIST_DIR, else `apps/web/dist` above this file. */
export function findWebDist(configured: string | undefined): string | undefined {
  if (configured) return fs.existsSync(path.join(configured, 'index.html')) ? configured : undefined;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'apps', 'web', 'dist');
    if (fs.existsSync(path.join(candidate, 'index.html'))) return candidate;
    dir = path.dirname(dir);
  }
  return undefined;
}

/** The sha256 CSP sources of the inline scripts in index.html (the pre-paint theme script). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    const body = match[1] ?? '';
    if (body.trim()) hashes.push(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return hashes;
}

/** Text made safe inside an HTML attribute or element. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * index.html with a page's own head: its title and description in place of the app's, and its meta tags
 * (Open Graph, Twitter) before `</head>`. Every value is escaped; the inline scripts are untouched, so
 * the CSP hashes still hold.
 */
export function withPageHead(indexHtml: string, head: PageHead): string {
  const meta = head.meta
    .map((tag) =>
      'property' in tag
        ? `<meta property="${escapeHtml(tag.property)}" content="${escapeHtml(tag.content)}" />`
        : `<meta name="${escapeHtml(tag.name)}" content="${escapeHtml(tag.content)}" />`,
    )
    .join('\n    ');
  return indexHtml
    .replace(/<title>[\s\S]*?<\/title>/, () => `<title>${escapeHtml(head.title)}</title>`)
    .replace(
      /<meta name="description" content="[^"]*"\s*\/?>/,
      () => `<meta name="description" content="${escapeHtml(head.description)}" />`,
    )
    .replace('</head>', () => `    ${meta}\n  </head>`);
}

/**
 * Serves the built single-page app: hashed assets cached for good, every page path gets index.html, and the
 * modules' pages (`pages.heads`) get it with their own head.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  pages: { heads: readonly WebPageHead[]; deps: AppDeps },
): Promise<(req: FastifyRequest, reply: FastifyReply) => boolean> {
  const indexHtml = fs.readFileSync(path.join(distDir, 'index.html'));
  await app.register(fastifyStatic, {
    root: distDir,
    index: false,
    // One route per built file, found once at start (the build does not change while the server runs):
    // an unknown path goes straight to the not-found handler, with no disk lookup on the API's 404 path.
    wildcard: false,
    setHeaders: (res, filePath) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        res.header('cache-control', 'public, max-age=31536000, immutable');
      }
    },
  });
  const sendIndex = (reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  app.get('/', { schema: { hide: true } }, (_req, reply) => sendIndex(reply));
  const indexText = indexHtml.toString('utf8');
  for (const page of pages.heads) {
    app.get(page.path, { schema: { hide: true } }, async (request, reply) => {
      let head: PageHead;
      try {
        head = await page.head(request, pages.deps);
      } catch (error) {
        // A preview is a courtesy: the page itself still works, with the app's own head.
        request.log.warn({ err: error, path: page.path }, 'the page head could not be made');
        return sendIndex(reply);
      }
      return reply
        .code(head.status ?? 200)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(withPageHead(indexText, head));
    });
  }
  /** Answers an unknown path with the app when it is a page request; false when it is not one. */
  return (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !API_PREFIXES.some((p) => url === p.replace(/\/$/, '') || url.startsWith(p)) &&
      !path.extname(url) &&
      (request.headers.accept ?? '').includes('text/html');
    if (isPage) sendIndex(reply);
    return isPage;
  };
}
