import { defineModule } from '../../platform/module';
import { audioNativeRoutes } from './audio-native.routes';
import * as tables from './audio-native.tables';

/** Audio Native: Studio projects with an embeddable player, its settings and its analytics (issue 30). */
export const audioNativeModule = defineModule({
  name: 'audio-native',
  routes: [audioNativeRoutes],
  tables,
});
