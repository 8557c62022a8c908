import { defineModule } from '../../platform/module';
import { devMailboxRoutes } from './mail.routes';
import * as tables from './mail.tables';

/** The local outbox; its mailbox pages only outside production. */
export const mailModule = defineModule({
  name: 'mail',
  routes: [devMailboxRoutes],
  serves: (deps) => deps.config.role !== 'worker' && deps.config.env !== 'production',
  tables,
});
