import { defineModule } from '../../platform/module';
import { consentRoutes, registerGlobalPrivacyControl } from './consent.routes';
import * as tables from './consent.tables';

/** Analytics consent, the CCPA opt-out (and Global Privacy Control on every request), biometric terms. */
export const consentModule = defineModule({
  name: 'consent',
  routes: [consentRoutes],
  appHooks: registerGlobalPrivacyControl,
  tables,
});
