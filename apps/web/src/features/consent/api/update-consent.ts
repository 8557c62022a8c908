import { type AnalyticsConsentChoice, type ConsentStateResponse, updateConsentRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { consentQueryKey } from './get-consent';

export interface UpdateConsentInput {
  /** The banner's Accept (`granted`) or Decline (`denied`). */
  analytics_consent?: AnalyticsConsentChoice;
  /** accounts §4: sent when the stored flag or Global Privacy Control asks for the CCPA opt-out. */
  optOutCCPA?: true;
}

/** `POST /v1/user/consent`: answers the new consent state. */
export function updateConsent(body: UpdateConsentInput): Promise<ConsentStateResponse> {
  return apiRequest(updateConsentRoute, { body });
}

/** Records a consent choice; the answer replaces the cached state (the banner goes at once). */
export function useUpdateConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateConsent,
    onSuccess: (state) => {
      queryClient.setQueryData(consentQueryKey, state);
      void queryClient.invalidateQueries({ queryKey: ['users', 'me'], exact: true });
    },
  });
}
