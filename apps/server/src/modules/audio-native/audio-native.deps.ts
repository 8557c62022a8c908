import type { Logger } from 'pino';
import type { AppDeps } from '../../app-deps';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import type { Storage } from '../../platform/storage/storage';
import { type StudioDeps, studioDepsOf } from '../studio';

/** What Audio Native works with: its tables, the files, Studio's front door (its projects hold the content). */
export interface AudioNativeDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  storage: Storage;
  /** PUBLIC_URL: the snippet's script and the player's audio are addressed from it. */
  publicUrl: string;
  studio: StudioDeps;
}

export function audioNativeDepsOf(app: AppDeps): AudioNativeDeps {
  return {
    db: app.database.db,
    clock: app.clock,
    logger: app.logger,
    storage: app.storage,
    publicUrl: app.config.publicUrl.replace(/\/+$/, ''),
    studio: studioDepsOf(app),
  };
}
