import fs from 'node:fs';
import path from 'node:path';
import { PREMADE_VOICES, STT_MAX_UPLOAD_BYTES } from '@parla/contracts';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createEventBus } from './event-handlers';
import { registeredJobs, SHAREABLE_KINDS } from './modules';
import { createAuthGuard } from './modules/auth';
import { billingRenewalsJob, provideRenewalDeps } from './modules/billing/billing.jobs';
import { startGenerationLeases } from './modules/credits/generation-leases';
import { provideShareVideoDeps } from './modules/history/share-video.jobs';
import { outboxKeeper } from './modules/mail';
import { provideSttJobDeps } from './modules/speech-to-text/speech-to-text.jobs';
import { seedBuiltInVoices } from './modules/voices';
import { providePvcDeps } from './modules/voices/pvc.jobs';
import { warmVoicePreviews } from './modules/voices/voice-previews';
import { provideWebhookDeps } from './modules/webhooks';
import { systemClock } from './platform/clock';
import { openDatabase } from './platform/db/client';
import { DataDirLockedError } from './platform/db/data-dir-lock';
import { JobQueue } from './platform/jobs/job-queue';
import { JobWorker } from './platform/jobs/job-worker';
import { createLogger } from './platform/logger';
import { removeDeadScratchDirs } from './platform/scratch-dirs';
import { LocalStorage } from './platform/storage/local-storage';
import { createProviders } from './providers';
import { EnginePool } from './providers/engines/engine-pool';
import { programHost } from './providers/engines/program-host';

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
  // The library's built-in voices: a few queries when nothing changed, no engine work (issue 18 item 6).
  const seeded = await seedBuiltInVoices({ db: database.db, storage });
  logger.info(
    {
      added: seeded.added.length,
      updated: seeded.updated.length,
      retired: seeded.retired.length,
      ms: seeded.ms,
    },
    'built-in voices ready',
  );
  if (config.migrateOnly) {
    await database.close();
    return;
  }

  // What a killed run of this host left in its scratch folders (a half-rendered video, an upload handed to
  // ffmpeg) goes before any job runs again.
  const removed = await removeDeadScratchDirs();
  if (removed.length > 0) logger.info({ removed }, 'removed the scratch folders of processes that are gone');
  const engines = new EnginePool({ ...config.engines, size: config.engines.poolSize, logger });
  await engines.start();
  // ffmpeg runs in the program host: started now, so the first generation does not pay for the fork.
  programHost.start();
  // Before any generation: refunds what a previous run left unfinished (at once on PGlite, else once
  // its lease ran out), then keeps this process's leases and sweeps for dead processes' generations.
  const leases = await startGenerationLeases(database, config.generationLeaseMs, logger);
  const queue = new JobQueue(database.db);
  const events = createEventBus({ db: database.db, queue, logger, clock: systemClock, storage });
  // Before the worker starts: a render left queued by the last run may be claimed at once.
  provideShareVideoDeps({ db: database.db, storage });
  const providers = createProviders(config, { engines, keepOutbox: outboxKeeper(database.db), logger });
  providePvcDeps({ db: database.db, storage, denoise: providers.denoise });
  provideWebhookDeps({
    db: database.db,
    queue,
    events,
    logger,
    clock: systemClock,
    settings: config.webhooks,
    production: config.env === 'production',
  });
  provideSttJobDeps({
    db: database.db,
    events,
    clock: systemClock,
    logger,
    leases,
    storage,
    stt: providers.stt,
    queue,
    urlPolicy: { ...config.sttUrls, maxBytes: STT_MAX_UPLOAD_BYTES },
  });

  let worker: JobWorker | undefined;
  if (config.role !== 'api') {
    worker = new JobWorker({
      db: database.db,
      definitions: registeredJobs,
      ...config.jobs,
      logger,
      exclusiveDatabase: database.kind === 'pglite',
    });
    queue.onEnqueued = () => worker?.wake();
    await worker.start();
  }

  provideRenewalDeps({
    db: database.db,
    events,
    clock: systemClock,
    provider: providers.billing,
  });
  let renewals: NodeJS.Timeout | undefined;
  if (config.role !== 'api') {
    // The renewal job runs once per interval, whichever worker enqueues it first (the slot is its key).
    const enqueueRenewals = () => {
      const slot = Math.floor(Date.now() / config.billing.renewalIntervalMs);
      queue
        .enqueue(billingRenewalsJob, {}, { singletonKey: `billing.renewals:${slot}` })
        .catch((err: unknown) => logger.error({ err }, 'could not enqueue the billing renewals'));
    };
    enqueueRenewals();
    renewals = setInterval(enqueueRenewals, config.billing.renewalIntervalMs);
    renewals.unref();
  }

  const app = await buildApp({
    config,
    version,
    logger,
    database,
    storage,
    queue,
    engines,
    leases,
    events,
    providers,
    auth: createAuthGuard({ db: database.db, clock: systemClock, authSecret: config.authSecret }),
    clock: systemClock,
    shareableKinds: SHAREABLE_KINDS,
  });
  await app.listen({ host: config.host, port: config.port });
  logger.info({ role: config.role, url: config.publicUrl }, 'Parla is ready');
  if (config.role !== 'worker') {
    // The voice previews are made once (then kept in storage), in the background so start-up does not wait.
    void warmVoicePreviews({ engines, storage, logger, db: database.db }, PREMADE_VOICES);
  }

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
    clearInterval(renewals);
    await app.close();
    await worker?.stop(config.shutdownTimeoutMs);
    await engines.stop();
    leases.stop();
    programHost.stop();
    await providers.mail.close();
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
