import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { inject } from 'vitest';
import { buildApp } from '../app';
import type { AppDeps } from '../app-deps';
import { loadConfig } from '../config';
import { createEventBus } from '../event-handlers';
import { SHAREABLE_KINDS, WORKSPACE_FIELDS } from '../modules';
import { createAuthGuard } from '../modules/auth';
import { outboxKeeper } from '../modules/mail';
import { startGenerationLeases } from '../modules/metering';
import { type Clock, systemClock } from '../platform/clock';
import { type Database, fromPglite, openDatabase } from '../platform/db/client';
import { JobQueue } from '../platform/jobs/job-queue';
import { createLogger } from '../platform/logger';
import { type ModelStore, modelStore } from '../platform/models/model-store';
import { LocalStorage } from '../platform/storage/local-storage';
import { createProviders, type Providers } from '../providers';
import { EnginePool } from '../providers/engines/engine-pool';

/** Opens the database under test: PGlite from the migrated snapshot, or the PostgreSQL server. */
export async function openTestDatabase(): Promise<Database> {
  const url = inject('databaseUrl');
  if (url) return openDatabase({ kind: 'postgres', url, poolSize: 4 });
  const snapshot = new Blob([fs.readFileSync(inject('pgliteSnapshot'))]);
  return fromPglite(await PGlite.create({ loadDataDir: snapshot }));
}

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  close(): Promise<void>;
}

/**
 * The real HTTP app on the real database, for one test file. `extend` may add routes before the app
 * is ready (used to exercise the error pipeline with routes declared by the test).
 */
export async function createTestApp(
  options: {
    extend?: (app: FastifyInstance, deps: AppDeps) => void;
    /** The clock of the app (billing tests move it forward). */
    clock?: Clock;
    /** Extra environment for this app's config (e.g. SMTP_URL, NODE_ENV=production). */
    env?: Record<string, string>;
    /** Providers to use instead of the configured ones (e.g. a speech-to-text provider a test controls). */
    providers?: Partial<Providers>;
    /** Where the app's log lines go (with `env: { LOG_LEVEL }`), for a test that reads what was logged. */
    logDestination?: DestinationStream;
    /** The model store (default: this process's, on MODELS_DIR), e.g. one on a folder with a corrupt file. */
    models?: ModelStore;
  } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-test-'));
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      ENGINE_POOL_SIZE: '1',
      ENGINE_TIMEOUT_MS: '5000',
      ...options.env,
    },
    [],
  );
  const logger = createLogger(config.log, options.logDestination);
  const engines = new EnginePool({
    size: config.engines.poolSize,
    timeoutMs: config.engines.timeoutMs,
    logger,
  });
  // The engine child starts (a process of its own, on the other core) while PGlite loads the snapshot in
  // this one: every integration file makes an app, and the two one after the other took 5.6 s against
  // 4.2 s side by side (the mean of 6 each, alternated in one run on the loaded 2-core machine, 2026-11-29).
  const started = engines.start();
  let database: Database;
  try {
    database = await openTestDatabase();
  } finally {
    await started;
  }
  const leases = await startGenerationLeases(database, config.generationLeaseMs, logger);
  const queue = new JobQueue(database.db);
  const storage = new LocalStorage(path.join(dataDir, 'files'));
  const deps: AppDeps = {
    config,
    version: 'test',
    logger,
    database,
    storage,
    queue,
    events: createEventBus({
      db: database.db,
      queue,
      logger,
      clock: options.clock ?? systemClock,
      storage,
    }),
    engines,
    leases,
    models: options.models ?? modelStore(),
    providers: {
      ...createProviders(config, { engines, keepOutbox: outboxKeeper(database.db), logger }),
      ...options.providers,
    },
    // Tokens keep real time: a billing test's clock runs months ahead.
    auth: createAuthGuard({ db: database.db, clock: systemClock, authSecret: config.authSecret }),
    clock: options.clock ?? systemClock,
    shareableKinds: SHAREABLE_KINDS,
    workspaceFields: WORKSPACE_FIELDS,
  };
  const app = await buildApp(deps);
  options.extend?.(app, deps);
  await app.ready();
  return {
    app,
    deps,
    close: async () => {
      await app.close();
      await engines.stop();
      leases.stop();
      await deps.providers.mail.close();
      await deps.providers.llm.close?.();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What the credits module's spends need, from a test app. */
export function spendDepsOf(t: TestApp): { db: AppDeps['database']['db']; events: AppDeps['events'] } {
  return { db: t.deps.database.db, events: t.deps.events };
}

/** `GET /v1/test/whoami`: answers the caller the auth guard found, for tests of authentication. */
export function addWhoamiRoute(app: FastifyInstance, deps: AppDeps): void {
  app.get('/v1/test/whoami', { onRequest: deps.auth.requireAuth }, async (request) => request.principal);
}
