import { createConnectAccountManagementLinkRoute } from '@parla/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/billing/create-connect-account-management-link` (accounts §7): manage the payouts account. */
export function createConnectAccountManagementLink(relativeRedirectPath: string): Promise<{ url: string }> {
  return apiRequest(createConnectAccountManagementLinkRoute, {
    body: { relative_redirect_path: relativeRedirectPath },
  });
}

export function useCreateConnectAccountManagementLink() {
  return useMutation({ mutationFn: createConnectAccountManagementLink });
}
