import { defineModule, moduleJob } from '../../platform/module';
import { dubbingDepsOf } from './dubbing.deps';
import { subscribeDubbing } from './dubbing.events';
import { dubJob, renderJob } from './dubbing.jobs';
import { dubbingRoutes } from './dubbing.routes';
import * as tables from './dubbing.tables';

/** Dubbing: audio and video into other languages, and the dubbing editor (issue 29). */
export const dubbingModule = defineModule({
  name: 'dubbing',
  routes: [dubbingRoutes],
  jobs: [moduleJob(dubJob, dubbingDepsOf), moduleJob(renderJob, dubbingDepsOf)],
  tables,
  subscribe: subscribeDubbing,
});
