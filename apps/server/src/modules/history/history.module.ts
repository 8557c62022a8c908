import { defineModule, moduleJob } from '../../platform/module';
import { subscribeHistory } from './history.events';
import { historyRoutes } from './history.routes';
import { historyItemShareable } from './history.shareable';
import * as tables from './history.tables';
import { sharePageHeads } from './share-page.head';
import { shareVideoRenderJob } from './share-video.jobs';
import { shareVideoRoutes } from './share-video.routes';

/** The workspace's generations, downloads, feedback, share links and share videos. */
export const historyModule = defineModule({
  name: 'history',
  routes: [historyRoutes, shareVideoRoutes],
  jobs: [moduleJob(shareVideoRenderJob, (app) => ({ db: app.database.db, storage: app.storage }))],
  shareable: [historyItemShareable],
  tables,
  subscribe: subscribeHistory,
  pageHeads: sharePageHeads,
});
