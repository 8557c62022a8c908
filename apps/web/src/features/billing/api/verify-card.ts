import { verifyCardRoute } from '@parla/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/billing/verify-card` (accounts §7): a zero-amount check of the card on file. */
export function verifyCard(): Promise<{ status: 'ok'; verified: true }> {
  return apiRequest(verifyCardRoute, { body: {} });
}

export function useVerifyCard() {
  return useMutation({ mutationFn: verifyCard });
}
