import { defineModule, moduleJob } from '../../platform/module';
import { studioDepsOf } from './studio.deps';
import { subscribeStudio } from './studio.events';
import { convertJob } from './studio.jobs';
import { studioRoutes } from './studio.routes';
import * as tables from './studio.tables';

/** Studio: long-form projects and audiobooks — chapters, blocks, conversions and snapshots (issue 30). */
export const studioModule = defineModule({
  name: 'studio',
  routes: [studioRoutes],
  jobs: [moduleJob(convertJob, studioDepsOf)],
  tables,
  subscribe: subscribeStudio,
});
