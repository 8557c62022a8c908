import type { Config } from '../../config';
import type { BillingProvider } from './billing-provider';
import { createTestProvider } from './test-provider';

/** The provider the configuration picks (config BILLING_PROVIDER); null when payments are off. */
export function createBillingProvider(config: Config): BillingProvider | null {
  switch (config.billing.provider) {
    case 'none':
      return null;
    case 'test':
      return createTestProvider(config.publicUrl);
    case 'stripe':
      throw new Error('the Stripe provider is not built yet');
  }
}
