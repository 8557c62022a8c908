import { defineModule } from '../../platform/module';
import { subscribeOnboarding } from './onboarding.events';
import { onboardingRoutes } from './onboarding.routes';
import * as tables from './onboarding.tables';

/** The onboarding survey and checklist; the checklist's triggers are other modules' events. */
export const onboardingModule = defineModule({
  name: 'onboarding',
  routes: [onboardingRoutes],
  subscribe: subscribeOnboarding,
  tables,
});
