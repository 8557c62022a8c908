/** The billing module's front door: what other modules may use (issue 17; the rest is its own). */
export { subscriptionBilling } from './billing.service';
export type { SubscriptionRow } from './billing.store';
export { defaultSubscription, loadBillingState } from './billing.store';
