/** The billing messages of accounts §8, verbatim. */
export const billingMessages = {
  couponExpired: "This coupon has expired, please use a different one. We've removed it from your browser.",
  couponInvalid: (code: string) => `Coupon code ${code} is invalid`,
  promoValidationFailed: 'Error validating promocode code',
  checkoutFailed: 'Failed to create checkout session',
  changeFailed: (changeType: ChangeType) => `Failed to ${changeType} subscription`,
} as const;

/** The "change type" of accounts §8 "Failed to {change type} subscription". */
export type ChangeType = 'upgrade' | 'downgrade' | 'cancel';
