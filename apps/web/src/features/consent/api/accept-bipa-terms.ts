import { acceptBipaTermsRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/accept-bipa-terms` (accounts §7): the updated biometric terms of accounts §4. */
export function acceptBipaTerms(): Promise<{ status: 'ok' }> {
  return apiRequest(acceptBipaTermsRoute);
}

/** Accepts the terms, then refreshes the user and the consent state (the dialog closes with it). */
export function useAcceptBipaTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptBipaTerms,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users', 'me'] }),
  });
}
