import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppDeps } from '../app-deps';
import type { Clock } from './clock';
import type { Db } from './db/client';
import type { EventBus } from './events/event-bus';
import type { JobDefinition } from './jobs/job-definition';
import type { Storage } from './storage/storage';

/** A plugin of a module's routes, registered in a scope of its own (its multipart limits stay its own). */
export type RoutePlugin = (app: FastifyInstance, deps: AppDeps) => Promise<void>;

/** What event handlers get when they are subscribed, in every process. */
export interface EventHandlerDeps {
  db: Db;
  logger: Logger;
  clock: Clock;
  /** The files (clean-up after a deletion). */
  storage: Storage;
}

/**
 * A module's manifest (issue 17 item 1): what the app wires from it at start-up. The app, the job
 * registry and the event bus loop over the manifests (`modules.ts`); adding a module is adding its
 * manifest there.
 */
export interface ModuleManifest {
  name: string;
  /** The module's route plugins. */
  routes?: readonly RoutePlugin[];
  /** Whether this process serves the routes (default: every role but `worker`). */
  serves?: (deps: AppDeps) => boolean;
  /** Hooks on the whole app, added before any route (e.g. consent's Global Privacy Control). */
  appHooks?: (app: FastifyInstance, deps: AppDeps) => void;
  /** The module's jobs. */
  // biome-ignore lint/suspicious/noExplicitAny: jobs of every payload type; each is parsed by its own schema.
  jobs?: readonly JobDefinition<any>[];
  /** Subscribes the module's handlers to the domain events. */
  subscribe?: (bus: EventBus, deps: EventHandlerDeps) => void;
  /** The module's tables (drizzle), for the database schema. */
  tables?: Readonly<Record<string, unknown>>;
}

/** Declares a manifest with its shape checked. */
export function defineModule(manifest: ModuleManifest): ModuleManifest {
  return manifest;
}
