import type { Logger } from 'pino';
import type { Config } from './config';
import type { GenerationLeases } from './modules/metering';
import type { AuthGuard } from './platform/auth-guard';
import type { Clock } from './platform/clock';
import type { Database } from './platform/db/client';
import type { EventBus } from './platform/events/event-bus';
import type { JobQueue } from './platform/jobs/job-queue';
import type { ModelStore } from './platform/models/model-store';
import type { ShareableKinds, WorkspaceFieldSource } from './platform/module';
import type { Storage } from './platform/storage/storage';
import type { Providers } from './providers';
import type { EnginePool } from './providers/engines/engine-pool';

/**
 * What the app hands its modules at start-up (routes, jobs, event handlers). Each module takes only the
 * parts it needs from here; it lives outside app.ts so that no module imports the app.
 */
export interface AppDeps {
  config: Config;
  version: string;
  logger: Logger;
  database: Database;
  storage: Storage;
  queue: JobQueue;
  /** The engine pool itself (its health, previews of the premade voices); speech goes through `providers.tts`. */
  engines: EnginePool;
  /** This process's leases on the generations it runs (credits survive a crash). */
  leases: GenerationLeases;
  /** The domain events: published in a transaction, delivered after it commits. */
  events: EventBus;
  /**
   * The model store: which models of the catalogue are on disk and whole (checked at start), and why the
   * others are unavailable. Engines get their files through `modelFiles()`.
   */
  models: ModelStore;
  /** Text to speech, speech to text, voice conversion, denoise and mail, chosen from the config at start-up. */
  providers: Providers;
  auth: AuthGuard;
  clock: Clock;
  /** The kinds of resource members share, from the module manifests (`SHAREABLE_KINDS`). */
  shareableKinds: ShareableKinds;
  /** What modules above the workspaces module add to its document, from the manifests (`WORKSPACE_FIELDS`). */
  workspaceFields: readonly WorkspaceFieldSource[];
}
