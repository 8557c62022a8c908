/** The billing module's front door: what other modules may do (issue 26 item 1; the rest is its own). */
export type { BillingState } from './billing.tables';
export { subscriptionBilling, subscriptionOf } from './billing-overview.service';
export { createPromoCode } from './promo-codes.service';
