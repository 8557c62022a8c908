import { defineModule, moduleJob } from '../../platform/module';
import { convaiSettingsRoutes } from './convai-settings.routes';
import { conversationSourcesOf } from './conversation-sources';
import { subscribeConversations } from './conversations.events';
import { conversationRetentionJob } from './conversations.jobs';
import { conversationsRoutes } from './conversations.routes';
import * as tables from './conversations.tables';
import { widgetRoutes } from './widget';

/** Conversations with agents: the socket, the conversations kept, minutes, the widget (issue 28). */
export const conversationsModule = defineModule({
  name: 'conversations',
  routes: [
    conversationsRoutes(conversationSourcesOf),
    convaiSettingsRoutes(conversationSourcesOf),
    widgetRoutes,
  ],
  jobs: [
    moduleJob(conversationRetentionJob, (app) => ({
      db: app.database.db,
      storage: app.storage,
      clock: app.clock,
    })),
  ],
  schedules: [{ definition: conversationRetentionJob, everyMs: () => 60 * 60 * 1000 }],
  subscribe: subscribeConversations,
  tables,
});
