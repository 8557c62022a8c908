import { agreeToTermsRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { userQueryKey } from '../../../lib/query-client';

/** `POST /v1/user/agree-to-terms` with `batch_calling` (accounts §3 terms_agreed_to), once per user. */
export function useAgreeToBatchTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(agreeToTermsRoute, { body: { terms: 'batch_calling' } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  });
}
