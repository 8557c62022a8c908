import { defineModule } from '../../platform/module';
import { pvcSeparateJob, pvcTrainJob } from './pvc.jobs';
import { pvcRoutes } from './pvc.routes';
import { subscribeVoices } from './voices.events';
import { voiceRoutes } from './voices.routes';
import { voiceShareable } from './voices.shareable';
import * as tables from './voices.tables';

/** Premade and own voices: instant and professional clones, design, the library, collections. */
export const voicesModule = defineModule({
  name: 'voices',
  routes: [voiceRoutes, pvcRoutes],
  jobs: [pvcSeparateJob, pvcTrainJob],
  shareable: [voiceShareable],
  tables,
  subscribe: subscribeVoices,
});
