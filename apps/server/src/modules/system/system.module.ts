import { defineModule } from '../../platform/module';
import { systemRoutes } from './system.routes';

/** Health: served by every process, workers included. */
export const systemModule = defineModule({
  name: 'system',
  routes: [systemRoutes],
  serves: () => true,
});
