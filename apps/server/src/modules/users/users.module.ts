import { defineModule } from '../../platform/module';
import { userRoutes } from './users.routes';
import * as tables from './users.tables';

/** The user document, sensitive actions, account deletion. */
export const usersModule = defineModule({ name: 'users', routes: [userRoutes], tables });
