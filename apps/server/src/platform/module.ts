import type { SHAREABLE_RESOURCE_TYPES, WorkspaceSummary } from '@parla/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { AppDeps } from '../app-deps';
import type { Config } from '../config';
import type { Clock } from './clock';
import type { Db } from './db/client';
import type { AppError } from './errors';
import type { EventBus } from './events/event-bus';
import type { JobDefinition } from './jobs/job-definition';
import type { JobQueue } from './jobs/job-queue';
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
  /** The job queue (handlers that fan an event out into jobs of their own). */
  queue: JobQueue;
}

/**
 * What the server writes into the head of the web app's page for one address, for link previews (Open
 * Graph, Twitter cards) that crawlers read without running the app's script.
 */
export interface PageHead {
  /** The document title. */
  title: string;
  /** The meta description. */
  description: string;
  /** Further `<meta>` tags: Open Graph ones by `property`, Twitter ones by `name`. */
  meta: ReadonlyArray<{ property: string; content: string } | { name: string; content: string }>;
  /** The answer's status (404 for a page whose subject is gone; the app still renders its message). */
  status?: number;
}

/** A page of the web app whose head the server fills in for each request (e.g. `/share/:share_link_id`). */
export interface WebPageHead {
  /** A Fastify path with parameters, e.g. `/share/:share_link_id`. */
  path: string;
  head(request: FastifyRequest, deps: AppDeps): Promise<PageHead>;
}

/** A kind of resource members share with each other: its `resource_type` on the wire. */
export type ShareableResourceType = (typeof SHAREABLE_RESOURCE_TYPES)[number];

/** A shareable resource as workspace sharing reads it: its place, its creator and the name it shows. */
export interface SharedResource {
  id: string;
  workspaceId: string;
  /** Who made it (admin on it); null when the account is gone. */
  creatorId: string | null;
  /** What the sharing dialog calls it (`resource_name`). */
  name: string;
}

/**
 * A kind of resource a module lets its members share (issue 17 item 2). Sharing holds the rule (the
 * creator is admin, the others hold what was shared with them, the admins inherit what a departed member
 * made) and the share rows; the module that owns the resource says how to find it and how to refuse it.
 * The module itself checks roles on its own routes and drops the shares when it deletes a resource
 * (workspaces' `callerRoleOn`, `forgetShares`).
 */
export interface ShareableKind {
  kind: ShareableResourceType;
  /** The resource with this id in this workspace, or undefined (another workspace's reads as absent). */
  find(db: Db, workspaceId: string, id: string): Promise<SharedResource | undefined>;
  /** The module's own 404 for a resource the caller cannot see. */
  notFound(id: string): AppError;
}

/** The shareable kinds of every module, by kind (built from the manifests in `modules.ts`). */
export type ShareableKinds = ReadonlyMap<ShareableResourceType, ShareableKind>;

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
  /** The module's jobs, each with how its dependencies are built (the worker hands them over). */
  jobs?: readonly ModuleJob[];
  /** Jobs the workers enqueue on a schedule (e.g. billing's renewals). */
  schedules?: readonly JobSchedule[];
  /**
   * Work of every process at start-up, after the migrations and before anything is served (also with
   * `--migrate-only`): e.g. seeding the library's built-in voices.
   */
  seed?: (deps: SeedDeps) => Promise<void>;
  /** Work a serving process starts in the background once it listens (e.g. the voice previews). */
  warm?: (deps: AppDeps) => Promise<void>;
  /** Subscribes the module's handlers to the domain events. */
  subscribe?: (bus: EventBus, deps: EventHandlerDeps) => void;
  /** The kinds of resource the module lets members share (workspace sharing looks them up here). */
  shareable?: readonly ShareableKind[];
  /** The module's tables (drizzle), for the database schema. */
  tables?: Readonly<Record<string, unknown>>;
  /** Pages of the web app whose head the server writes per request (link previews). */
  pageHeads?: readonly WebPageHead[];
  /**
   * What this module adds to the workspace's document (`GET /v1/workspace`): the workspaces module asks
   * every manifest, so a module above it answers for its own fields without a cycle.
   */
  workspaceFields?: WorkspaceFieldSource;
}

/** The fields of `GET /v1/workspace` that a module above the workspaces module answers for. */
export type WorkspaceFieldSource = (
  db: Db,
  workspaceId: string,
) => Promise<
  Partial<Pick<WorkspaceSummary, 'speech_to_text_webhook_ids' | 'pronunciation_dictionary_locators'>>
>;

/** What a module's start-up seeding gets (the test setup seeds its snapshot without storage). */
export interface SeedDeps {
  db: Db;
  storage?: Storage;
  logger: Logger;
}

/**
 * A job of a module and how its dependencies are built from the app's (issue 26 item 2): the worker
 * builds them once at start and hands them to every run (`bindJob`).
 */
export interface ModuleJob {
  // biome-ignore lint/suspicious/noExplicitAny: jobs of every payload and dependency type; each is parsed by its own schema.
  definition: JobDefinition<any, any>;
  deps(app: AppDeps): unknown;
}

/** Declares a module's job with the builder of its dependencies, their types checked against each other. */
export function moduleJob<P, D>(definition: JobDefinition<P, D>, deps: (app: AppDeps) => D): ModuleJob {
  return { definition, deps };
}

/**
 * A job the workers enqueue every `everyMs(config)`: once per interval across all workers (the interval's
 * number is its singleton key), with an empty payload.
 */
export interface JobSchedule {
  definition: JobDefinition<Record<string, never>, unknown>;
  everyMs(config: Config): number;
}

/** The registry of shareable kinds: one module per kind. */
export function shareableKindsOf(manifests: readonly ModuleManifest[]): ShareableKinds {
  const kinds = new Map<ShareableResourceType, ShareableKind>();
  for (const manifest of manifests) {
    for (const shareable of manifest.shareable ?? []) {
      if (kinds.has(shareable.kind)) {
        throw new Error(`two modules declare the shareable kind ${shareable.kind} (one is ${manifest.name})`);
      }
      kinds.set(shareable.kind, shareable);
    }
  }
  return kinds;
}

/** Declares a manifest with its shape checked. */
export function defineModule(manifest: ModuleManifest): ModuleManifest {
  return manifest;
}
