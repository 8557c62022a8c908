import type { Logger } from 'pino';
import type { AppDeps } from '../../app-deps';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import type { EventBus } from '../../platform/events/event-bus';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { Storage } from '../../platform/storage/storage';
import type { GenerationLeases } from '../metering';
import { type DictionaryDeps, dictionaryDepsOf } from '../pronunciation-dictionaries';
import type { SourceUrlPolicy } from '../speech-to-text';
import { type TtsDeps, ttsDepsOf } from '../tts';

/** What Studio works with: its tables, the files, the queue, and text to speech's parts (never its tables). */
export interface StudioDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  leases: GenerationLeases;
  storage: Storage;
  queue: JobQueue;
  /** Text to speech's dependencies: the engines, the model store, metering's. */
  tts: TtsDeps;
  /** The pronunciation dictionaries' (their front door resolves a project's locators to rules). */
  dictionaries: DictionaryDeps;
  /** `from_url`: the operator's URL policy (STT_URL_ALLOWED_HOSTS…, as dubbing's source_url). */
  urlPolicy: SourceUrlPolicy;
}

/** The largest page `from_url` fetches. */
const MAX_URL_BYTES = 50 * 1024 * 1024;

export function studioDepsOf(app: AppDeps): StudioDeps {
  return {
    db: app.database.db,
    events: app.events,
    clock: app.clock,
    logger: app.logger,
    leases: app.leases,
    storage: app.storage,
    queue: app.queue,
    tts: ttsDepsOf(app),
    dictionaries: dictionaryDepsOf(app),
    urlPolicy: { ...app.config.sttUrls, maxBytes: MAX_URL_BYTES },
  };
}
