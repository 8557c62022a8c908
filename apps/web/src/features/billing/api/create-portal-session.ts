import { createPortalSessionRoute } from '@parla/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/billing/create-portal-session` (accounts §7): the billing portal's URL. */
export function createPortalSession(): Promise<{ url: string }> {
  return apiRequest(createPortalSessionRoute, { body: {} });
}

export function useCreatePortalSession() {
  return useMutation({ mutationFn: createPortalSession });
}
