import { defineModule } from '../../platform/module';
import { accountRoutes } from './account.routes';
import * as tables from './account.tables';

/**
 * The account as its user sees it: the user document and subscription, metadata, sensitive actions (email
 * change, deletion), referral link. Above every module it gathers from; the users module below keeps the
 * user rows everyone else reads.
 */
export const accountModule = defineModule({ name: 'account', routes: [accountRoutes], tables });
