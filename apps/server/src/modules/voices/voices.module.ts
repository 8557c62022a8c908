import { PREMADE_VOICES } from '@parla/contracts';
import type { AppDeps } from '../../app-deps';
import { defineModule, moduleJob } from '../../platform/module';
import { seedBuiltInVoices } from './built-in-voices.service';
import { pvcSeparateJob, pvcTrainJob } from './pvc.jobs';
import { pvcRoutes } from './pvc.routes';
import { warmVoicePreviews } from './voice-previews';
import { subscribeVoices } from './voices.events';
import { voiceRoutes } from './voices.routes';
import { voiceShareable } from './voices.shareable';
import * as tables from './voices.tables';

/** What the professional-clone jobs read and write, from the app's. */
const pvcJobDeps = (app: AppDeps) => ({
  db: app.database.db,
  storage: app.storage,
  denoise: app.providers.denoise,
});

/** Premade and own voices: instant and professional clones, design, the library, collections. */
export const voicesModule = defineModule({
  name: 'voices',
  routes: [voiceRoutes, pvcRoutes],
  jobs: [moduleJob(pvcSeparateJob, pvcJobDeps), moduleJob(pvcTrainJob, pvcJobDeps)],
  shareable: [voiceShareable],
  tables,
  subscribe: subscribeVoices,
  // The library's built-in voices: a few queries when nothing changed, no engine work (issue 18 item 6).
  seed: async ({ db, storage, logger }) => {
    const seeded = await seedBuiltInVoices({ db, ...(storage ? { storage } : {}) });
    logger.info(
      {
        added: seeded.added.length,
        updated: seeded.updated.length,
        retired: seeded.retired.length,
        ms: seeded.ms,
      },
      'built-in voices ready',
    );
  },
  // The voice previews are made once (then kept in storage), in the background so start-up does not wait.
  warm: (app) =>
    warmVoicePreviews(
      {
        engines: app.engines,
        storage: app.storage,
        logger: app.logger,
        db: app.database.db,
        models: app.models,
      },
      PREMADE_VOICES,
    ),
});
