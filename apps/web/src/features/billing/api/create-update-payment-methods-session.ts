import { createUpdatePaymentMethodsSessionRoute } from '@parla/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/billing/create-update-payment-methods-session` (accounts §7): the change-card page's URL. */
export function createUpdatePaymentMethodsSession(): Promise<{ url: string }> {
  return apiRequest(createUpdatePaymentMethodsSessionRoute, { body: {} });
}

export function useCreateUpdatePaymentMethodsSession() {
  return useMutation({ mutationFn: createUpdatePaymentMethodsSession });
}
