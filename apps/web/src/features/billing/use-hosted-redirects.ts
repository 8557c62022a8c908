import { leaveAppTo } from '../../lib/leave-app';
import { useToast } from '../../lib/toasts/use-toast';
import { useCreatePortalSession } from './api/create-portal-session';
import { useCreateUpdatePaymentMethodsSession } from './api/create-update-payment-methods-session';

/** "Manage billing" and "Update payment method": ask for a hosted page, then go there. */
export function useHostedRedirects() {
  const { toastError } = useToast();
  const portal = useCreatePortalSession();
  const paymentMethod = useCreateUpdatePaymentMethodsSession();
  const go = { onSuccess: ({ url }: { url: string }) => leaveAppTo(url), onError: toastError };
  return {
    openPortal: () => portal.mutate(undefined, go),
    openPortalPending: portal.isPending || portal.isSuccess,
    updatePaymentMethod: () => paymentMethod.mutate(undefined, go),
    updatePaymentMethodPending: paymentMethod.isPending || paymentMethod.isSuccess,
  };
}
