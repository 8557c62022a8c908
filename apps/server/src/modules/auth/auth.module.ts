import { defineModule } from '../../platform/module';
import { authRoutes } from './auth.routes';
import * as tables from './auth.tables';

/** Sessions, tokens, second factor, mailed codes. */
export const authModule = defineModule({ name: 'auth', routes: [authRoutes], tables });
