import { defineModule } from '../../platform/module';
import { subscribeCredits } from './credits.events';
import * as tables from './credits.tables';
import { usageRoutes } from './usage.routes';

/** The credit ledger and balances, concurrency slots and their leases, the usage chart. */
export const creditsModule = defineModule({
  name: 'credits',
  routes: [usageRoutes],
  tables,
  subscribe: subscribeCredits,
});
