import { defineModule } from '../../platform/module';
import { subscribeApiKeys } from './api-keys.events';
import { apiKeyRoutes } from './api-keys.routes';
import * as tables from './api-keys.tables';

/** API keys: made, listed, changed, removed; a member's keys end when they leave a workspace. */
export const apiKeysModule = defineModule({
  name: 'api-keys',
  routes: [apiKeyRoutes],
  tables,
  subscribe: subscribeApiKeys,
});
