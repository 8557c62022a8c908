import { createConnectAccountRoute } from '@parla/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /v1/billing/create-connect-account` (accounts §7): opens a payouts account and answers the
 * onboarding page, which comes back to `relativeRedirectPath` on this site.
 */
export function createConnectAccount(relativeRedirectPath: string): Promise<{ url: string }> {
  return apiRequest(createConnectAccountRoute, { body: { relative_redirect_path: relativeRedirectPath } });
}

export function useCreateConnectAccount() {
  return useMutation({ mutationFn: createConnectAccount });
}
