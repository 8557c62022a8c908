import type { Currency } from '@parla/contracts';
import type { QueryClient } from '@tanstack/react-query';

/**
 * The billing query keys. The subscription sits under `['users', 'me']` so that whatever refreshes the
 * user after spending credits (a generation) refreshes the quota too.
 */
export const billingQueryKeys = {
  subscription: ['users', 'me', 'subscription'] as const,
  overview: ['billing', 'overview'] as const,
  /** The offers depend on the caller (first-month eligibility), hence the signed-in flag. */
  plans: (currency: Currency, signedIn: boolean) => ['billing', 'plans', currency, signedIn] as const,
  hostedSession: (sessionId: string) => ['billing', 'session', sessionId] as const,
};

/** After a billing change: the user (tier, quota), the subscription, the overview and the offers. */
export function invalidateBilling(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['users', 'me'] }),
    queryClient.invalidateQueries({ queryKey: ['billing'] }),
  ]).then(() => undefined);
}
