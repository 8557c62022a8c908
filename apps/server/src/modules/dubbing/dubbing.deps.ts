import type { Logger } from 'pino';
import type { AppDeps } from '../../app-deps';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import type { EventBus } from '../../platform/events/event-bus';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { ModelStore } from '../../platform/models/model-store';
import type { Storage } from '../../platform/storage/storage';
import type { SttProvider } from '../../providers/stt/stt-provider';
import type { TranslationProvider } from '../../providers/translation/translation-provider';
import type { TtsProvider } from '../../providers/tts/tts-provider';
import type { GenerationLeases } from '../metering';
import type { SourceUrlPolicy } from '../speech-to-text';

/** What dubbing works with: its tables, the files, and the engines it composes (never their modules' tables). */
export interface DubbingDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  leases: GenerationLeases;
  storage: Storage;
  queue: JobQueue;
  stt: SttProvider;
  engines: TtsProvider;
  translation: TranslationProvider;
  models: ModelStore;
  publicUrl: string;
  urlPolicy: SourceUrlPolicy;
}

export function dubbingDepsOf(app: AppDeps): DubbingDeps {
  return {
    db: app.database.db,
    events: app.events,
    clock: app.clock,
    logger: app.logger,
    leases: app.leases,
    storage: app.storage,
    queue: app.queue,
    stt: app.providers.stt,
    engines: app.providers.tts,
    translation: app.providers.translation,
    models: app.models,
    publicUrl: app.config.publicUrl,
    urlPolicy: { ...app.config.sttUrls, maxBytes: 1024 * 1024 * 1024 },
  };
}
