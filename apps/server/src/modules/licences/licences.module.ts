import { defineModule } from '../../platform/module';
import { licencesRoutes } from './licences.routes';

/** `/licenses`: Parla's licence and the third-party notices, for anyone. */
export const licencesModule = defineModule({
  name: 'licences',
  routes: [licencesRoutes],
});
