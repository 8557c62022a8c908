import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import type { AppDeps } from './app-deps';
import { ConfigError, loadConfig } from './config';
import { createEventBus } from './event-handlers';
import {
  jobSchedules,
  SHAREABLE_KINDS,
  seedModules,
  WORKSPACE_FIELDS,
  warmModules,
  workerJobs,
} from './modules';
import { createAuthGuard } from './modules/auth';
import { outboxKeeper } from './modules/mail';
import { startGenerationLeases } from './modules/metering';
import { systemClock } from './platform/clock';
import { openDatabase } from './platform/db/client';
import { DataDirLockedError } from './platform/db/data-dir-lock';
import { JobQueue } from './platform/jobs/job-queue';
import { startSchedules } from './platform/jobs/job-schedules';
import { JobWorker } from './platform/jobs/job-worker';
import { createLogger } from './platform/logger';
import { modelStore } from './platform/models/model-store';
import { programHost } from './platform/program-host';
import { removeDeadScratchDirs } from './platform/scratch-dirs';
import { LocalStorage } from './platform/storage/local-storage';
import { createProviders } from './providers';
import { EnginePool } from './providers/engines/engine-pool';

declare const __PARLA_VERSION__: string | undefined;
const version = typeof __PARLA_VERSION__ === 'string' ? __PARLA_VERSION__ : 'dev';

/** Process entry: config → database + migrations → engines → worker and/or HTTP → graceful stop. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.log);
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));

  fs.mkdirSync(config.dataDir, { recursive: true });
  const storage = new LocalStorage(path.join(config.dataDir, 'files'));
  const database = await openDatabase(config.database);
  await database.migrate();
  logger.info(
    { database: database.kind, version: await database.version() },
    'database ready, migrations applied',
  );
  // The modules' start-up seeding (the library's built-in voices): before anything is served.
  await seedModules({ db: database.db, storage, logger });
  if (config.migrateOnly) {
    await database.close();
    return;
  }

  // What a killed run of this host left in its scratch folders (a half-rendered video, an upload handed to
  // ffmpeg) goes before any job runs again.
  const removed = await removeDeadScratchDirs();
  if (removed.length > 0) logger.info({ removed }, 'removed the scratch folders of processes that are gone');
  // The model store: every model of the catalogue checked (sizes, and hashes once per file change, kept in
  // stamps) before the engine children start, so they find the stamps and never load an unavailable model.
  const models = modelStore();
  const checkStarted = performance.now();
  const checked = models.check();
  for (const model of checked.filter((m) => !m.available))
    logger.warn(
      { model: model.id, reason: model.reason },
      `model ${model.id} is unavailable: ${model.reason}`,
    );
  logger.info(
    {
      dir: models.dir,
      available: checked.filter((m) => m.available).map((m) => m.id),
      ms: Math.round(performance.now() - checkStarted),
    },
    'models checked',
  );
  // Each child loads the neural models the store holds as it starts, off the request path (issue 27 item 4).
  const engines = new EnginePool({ ...config.engines, size: config.engines.poolSize, logger, warmUp: true });
  await engines.start();
  // ffmpeg runs in the program host: started now, so the first generation does not pay for the fork.
  programHost.start();
  // Before any generation: refunds what a previous run left unfinished (at once on PGlite, else once
  // its lease ran out), then keeps this process's leases and sweeps for dead processes' generations.
  const leases = await startGenerationLeases(database, config.generationLeaseMs, logger);
  const queue = new JobQueue(database.db);
  const events = createEventBus({ db: database.db, queue, logger, clock: systemClock, storage });
  const providers = createProviders(config, { engines, keepOutbox: outboxKeeper(database.db), logger });
  const deps: AppDeps = {
    config,
    version,
    logger,
    database,
    storage,
    queue,
    engines,
    leases,
    events,
    models,
    providers,
    auth: createAuthGuard({ db: database.db, clock: systemClock, authSecret: config.authSecret }),
    clock: systemClock,
    shareableKinds: SHAREABLE_KINDS,
    workspaceFields: WORKSPACE_FIELDS,
  };

  // The worker runs the modules' jobs with the dependencies their manifests build (issue 26 item 2), and
  // enqueues their scheduled jobs (billing's renewals) once per interval across all workers.
  let worker: JobWorker | undefined;
  let stopSchedules: (() => void) | undefined;
  if (config.role !== 'api') {
    worker = new JobWorker({
      db: database.db,
      definitions: workerJobs(deps),
      ...config.jobs,
      logger,
      exclusiveDatabase: database.kind === 'pglite',
    });
    queue.onEnqueued = () => worker?.wake();
    await worker.start();
    stopSchedules = startSchedules(queue, jobSchedules(config), logger);
  }

  const app = await buildApp(deps);
  await app.listen({ host: config.host, port: config.port });
  logger.info({ role: config.role, url: config.publicUrl }, 'Parla is ready');
  if (config.role !== 'worker') warmModules(deps);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 5000);
    force.unref();
    stopSchedules?.();
    await app.close();
    await worker?.stop(config.shutdownTimeoutMs);
    await engines.stop();
    leases.stop();
    programHost.stop();
    await providers.mail.close();
    await providers.llm.close?.();
    await database.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/** A sentence for the start-up failures a person can fix; the stack for anything else. */
function describeStartFailure(error: unknown): string {
  if (error instanceof DataDirLockedError) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE')
    return 'The port is already in use by another program. Stop it or set PORT to a free port.';
  if (code === 'EACCES') return `Permission denied: ${(error as Error).message}`;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

main().catch((error: unknown) => {
  process.stderr.write(`Parla failed to start: ${describeStartFailure(error)}\n`);
  process.exit(1);
});
