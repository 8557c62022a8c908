import type { Config } from '../../config';
import type { BillingProvider } from './billing-provider';
import { createStripeProvider } from './stripe-provider';
import { createTestProvider } from './test-provider';

/** The provider the configuration picks (config BILLING_PROVIDER); null when payments are off. */
export function createBillingProvider(config: Pick<Config, 'billing' | 'publicUrl'>): BillingProvider | null {
  switch (config.billing.provider) {
    case 'none':
      return null;
    case 'test':
      return createTestProvider();
    case 'stripe': {
      const stripe = config.billing.stripe;
      // loadConfig refuses BILLING_PROVIDER=stripe without STRIPE_SECRET_KEY.
      if (!stripe) throw new Error('BILLING_PROVIDER=stripe needs STRIPE_SECRET_KEY');
      return createStripeProvider({
        secretKey: stripe.secretKey,
        webhookSecret: stripe.webhookSecret,
        apiUrl: stripe.apiUrl,
        publicUrl: config.publicUrl,
      });
    }
  }
}
