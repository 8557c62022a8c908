import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppDeps } from './app-deps';
import { MODULES } from './modules';
import { installErrorHandler, sendRouteNotFound } from './platform/http-errors';
import { newId } from './platform/ids';
import { registerJsonParser } from './platform/json-depth';
import { registerNoStoreDefault } from './platform/no-store';
import { registerOpenApi } from './platform/openapi';
import { registerPublicOriginWatch } from './platform/public-origin';
import { createPgRateLimitStore } from './platform/rate-limit/pg-rate-limit-store';
import { registerWebSockets } from './platform/realtime/websocket';
import { registerStringChecks } from './platform/request-strings';
import { findWebDist, inlineScriptHashes, registerWebApp } from './platform/web-app';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the HTTP app from the module plugins. `role=worker` serves health only. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    // A caller's own x-request-id is kept when it is sane, so traces join across services.
    requestIdHeader: 'x-request-id',
    genReqId: () => newId(16),
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!REQUEST_ID.test(request.id)) request.id = newId(16);
    reply.header('x-request-id', request.id);
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  // JSON bodies nest at most JSON_MAX_DEPTH levels: refused at the parser, before any walk.
  registerJsonParser(app);
  // Before every route's own hooks (the auth guard among them): no NUL reaches a lookup or a query.
  registerStringChecks(app);
  for (const module of MODULES) module.appHooks?.(app, deps);
  registerNoStoreDefault(app);
  if (config.role !== 'worker') {
    registerPublicOriginWatch(app, {
      publicUrl: config.publicUrl,
      guessed: config.publicUrlGuessed,
      logger: deps.logger,
    });
  }

  const webDist = config.role === 'worker' ? undefined : findWebDist(config.webDistDir);
  const indexHtml = webDist ? fs.readFileSync(path.join(webDist, 'index.html'), 'utf8') : '';
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        'script-src': ["'self'", ...inlineScriptHashes(indexHtml)],
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'"],
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cookie);
  // Limits are declared per route (config.rateLimit); counters live in the database, shared by all processes.
  await app.register(rateLimit, { global: false, store: createPgRateLimitStore(deps.database.db) });

  // Realtime sockets (issue 20) before the routes that declare them.
  if (config.role !== 'worker') await registerWebSockets(app);
  if (config.role !== 'worker') {
    const logo = webDist ? path.join(webDist, 'favicon.svg') : undefined;
    await registerOpenApi(app, {
      version: deps.version,
      publicUrl: config.publicUrl,
      ...(logo && fs.existsSync(logo) ? { logoSvg: fs.readFileSync(logo) } : {}),
    });
  }
  for (const module of MODULES) {
    if (!(module.serves?.(deps) ?? config.role !== 'worker')) continue;
    for (const routes of module.routes ?? []) await app.register(async (scope) => routes(scope, deps));
  }

  const servePage = webDist
    ? await registerWebApp(app, webDist, {
        heads: MODULES.flatMap((module) => module.pageHeads ?? []),
        deps,
      })
    : undefined;
  if (!webDist && config.role !== 'worker') {
    deps.logger.warn('the web app is not built (apps/web/dist); serving the API only');
  }
  app.setNotFoundHandler((request, reply) => {
    if (servePage?.(request, reply)) return reply;
    return sendRouteNotFound(request, reply);
  });
  return app;
}
