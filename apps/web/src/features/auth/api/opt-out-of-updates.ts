import { optOutOfUpdatesRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/opt-out-of-updates` (accounts §7): the unsubscribe link of the product updates. */
export function optOutOfUpdates(key: string) {
  return apiRequest(optOutOfUpdatesRoute, { body: { opt_out_updates_key: key } });
}
