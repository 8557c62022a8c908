import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Config } from './config';
import { apiKeyRoutes } from './modules/api-keys/api-keys.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { billingRoutes } from './modules/billing/billing.routes';
import type { BillingProvider } from './modules/billing/billing-provider';
import { isStripeProvider } from './modules/billing/stripe-provider';
import { stripeWebhookRoutes } from './modules/billing/stripe-webhook.routes';
import { consentRoutes, registerGlobalPrivacyControl } from './modules/consent/consent.routes';
import type { GenerationLeases } from './modules/credits/generation-leases';
import { usageRoutes } from './modules/credits/usage.routes';
import { dialogueRoutes } from './modules/dialogue/dialogue.routes';
import { growthRoutes } from './modules/growth/growth.routes';
import { historyRoutes } from './modules/history/history.routes';
import { shareVideoRoutes } from './modules/history/share-video.routes';
import { devMailboxRoutes } from './modules/mail/mail.routes';
import { notificationRoutes } from './modules/notifications/notifications.routes';
import { onboardingRoutes } from './modules/onboarding/onboarding.routes';
import { stsRoutes } from './modules/speech-to-speech/sts.routes';
import { systemRoutes } from './modules/system/system.routes';
import { ttsRoutes } from './modules/tts/tts.routes';
import { userRoutes } from './modules/users/users.routes';
import { pvcRoutes } from './modules/voices/pvc.routes';
import { voiceRoutes } from './modules/voices/voices.routes';
import { workspaceRoutes } from './modules/workspaces/workspaces.routes';
import type { AuthGuard } from './platform/auth-guard';
import type { Clock } from './platform/clock';
import type { Database } from './platform/db/client';
import type { EventBus } from './platform/events/event-bus';
import { installErrorHandler, sendRouteNotFound } from './platform/http-errors';
import { newId } from './platform/ids';
import type { JobQueue } from './platform/jobs/job-queue';
import { registerNoStoreDefault } from './platform/no-store';
import { registerOpenApi } from './platform/openapi';
import { createPgRateLimitStore } from './platform/rate-limit/pg-rate-limit-store';
import { registerStringChecks } from './platform/request-strings';
import type { Storage } from './platform/storage/storage';
import { findWebDist, inlineScriptHashes, registerWebApp } from './platform/web-app';
import type { EnginePool } from './providers/engines/engine-pool';
import type { Mailer } from './providers/mail/mailer';

/** What route plugins may use. Each module takes only the parts it needs from here. */
export interface AppDeps {
  config: Config;
  version: string;
  logger: Logger;
  database: Database;
  storage: Storage;
  queue: JobQueue;
  engines: EnginePool;
  /** This process's leases on the generations it runs (credits survive a crash). */
  leases: GenerationLeases;
  /** The domain events: published in a transaction, delivered after it commits. */
  events: EventBus;
  mailer: Mailer;
  auth: AuthGuard;
  clock: Clock;
  /** Who takes payments; null when payments are off (BILLING_PROVIDER=none). */
  billingProvider: BillingProvider | null;
}

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
  // Before every route's own hooks (the auth guard among them): no NUL reaches a lookup or a query.
  registerStringChecks(app);
  registerGlobalPrivacyControl(app, deps);
  registerNoStoreDefault(app);

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

  if (config.role !== 'worker') {
    const logo = webDist ? path.join(webDist, 'favicon.svg') : undefined;
    await registerOpenApi(app, {
      version: deps.version,
      publicUrl: config.publicUrl,
      ...(logo && fs.existsSync(logo) ? { logoSvg: fs.readFileSync(logo) } : {}),
    });
  }
  await app.register(async (scope) => systemRoutes(scope, deps));
  if (config.role !== 'worker') {
    await app.register(async (scope) => authRoutes(scope, deps));
    await app.register(async (scope) => userRoutes(scope, deps));
    await app.register(async (scope) => onboardingRoutes(scope, deps));
    await app.register(async (scope) => consentRoutes(scope, deps));
    await app.register(async (scope) => apiKeyRoutes(scope, deps));
    await app.register(async (scope) => voiceRoutes(scope, deps));
    await app.register(async (scope) => pvcRoutes(scope, deps));
    await app.register(async (scope) => workspaceRoutes(scope, deps));
    await app.register(async (scope) => ttsRoutes(scope, deps));
    await app.register(async (scope) => stsRoutes(scope, deps));
    await app.register(async (scope) => dialogueRoutes(scope, deps));
    await app.register(async (scope) => historyRoutes(scope, deps));
    await app.register(async (scope) => shareVideoRoutes(scope, deps));
    await app.register(async (scope) => billingRoutes(scope, deps));
    const billingProvider = deps.billingProvider;
    if (isStripeProvider(billingProvider)) {
      await app.register(async (scope) => stripeWebhookRoutes(scope, deps, billingProvider));
    }
    await app.register(async (scope) => usageRoutes(scope, deps));
    await app.register(async (scope) => notificationRoutes(scope, deps));
    await app.register(async (scope) => growthRoutes(scope, deps));
  }
  if (config.role !== 'worker' && config.env !== 'production') {
    await app.register(async (scope) => devMailboxRoutes(scope, deps));
  }

  const servePage = webDist ? await registerWebApp(app, webDist) : undefined;
  if (!webDist && config.role !== 'worker') {
    deps.logger.warn('the web app is not built (apps/web/dist); serving the API only');
  }
  app.setNotFoundHandler((request, reply) => {
    if (servePage?.(request, reply)) return reply;
    return sendRouteNotFound(request, reply);
  });
  return app;
}
