import { defineModule, moduleJob } from '../../platform/module';
import { audioNativeRetentionJob } from './audio-native.jobs';
import { audioNativeRoutes } from './audio-native.routes';
import * as tables from './audio-native.tables';

/** Audio Native: Studio projects with an embeddable player, its settings and its analytics (issue 30). */
export const audioNativeModule = defineModule({
  name: 'audio-native',
  routes: [audioNativeRoutes],
  jobs: [moduleJob(audioNativeRetentionJob, (app) => ({ db: app.database.db, clock: app.clock }))],
  // Hourly: a day's sessions leave within the hour after their last period ends.
  schedules: [{ definition: audioNativeRetentionJob, everyMs: () => 60 * 60 * 1000 }],
  tables,
});
