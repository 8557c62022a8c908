/** The billing module's front door: what other modules may use (issue 17; the rest is its own). */

export type { SubscriptionRow } from './billing.store';
export { defaultSubscription, loadBillingState } from './billing.store';
export { subscriptionBilling } from './billing-overview.service';
export { createPromoCode } from './promo-codes.service';
