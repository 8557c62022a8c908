import { defineModule } from '../../platform/module';
import { apiKeyRoutes } from './api-keys.routes';
import * as tables from './api-keys.tables';

/** API keys: made, listed, changed, removed. */
export const apiKeysModule = defineModule({ name: 'api-keys', routes: [apiKeyRoutes], tables });
