import { defineModule } from '../../platform/module';
import { authRoutes } from './auth.routes';
import * as tables from './auth.tables';
import { singleUseTokenRoutes } from './single-use-tokens.routes';

/** Sessions, tokens (single-use ones for sockets among them), second factor, mailed codes. */
export const authModule = defineModule({
  name: 'auth',
  routes: [authRoutes, singleUseTokenRoutes],
  tables,
});
