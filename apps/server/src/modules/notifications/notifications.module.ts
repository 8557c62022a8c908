import { defineModule } from '../../platform/module';
import { subscribeNotifications } from './notifications.events';
import { notificationRoutes } from './notifications.routes';
import * as tables from './notifications.tables';

/** The messages under the bell; what they say comes from other modules' events. */
export const notificationsModule = defineModule({
  name: 'notifications',
  routes: [notificationRoutes],
  subscribe: subscribeNotifications,
  tables,
});
