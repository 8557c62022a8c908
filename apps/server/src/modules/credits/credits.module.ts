import { defineModule } from '../../platform/module';
import * as tables from './credits.tables';
import { usageRoutes } from './usage.routes';

/** The credit ledger, concurrency slots and their leases, the usage chart. */
export const creditsModule = defineModule({ name: 'credits', routes: [usageRoutes], tables });
