import { defineModule } from '../../platform/module';
import { growthRoutes } from './growth.routes';
import * as tables from './growth.tables';

/** Referral records and paid-ads visits. */
export const growthModule = defineModule({ name: 'growth', routes: [growthRoutes], tables });
