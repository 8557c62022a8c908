import { defineModule } from '../../platform/module';
import { telephonyRoutes } from './telephony.routes';
import * as tables from './telephony.tables';

/** Agents' phone numbers and phone calls: Twilio numbers, outbound and registered calls, the media stream. */
export const telephonyModule = defineModule({
  name: 'telephony',
  routes: [telephonyRoutes],
  tables,
});
