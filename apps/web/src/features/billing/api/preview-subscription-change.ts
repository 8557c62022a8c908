import { previewSubscriptionChangeRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type PreviewSubscriptionChangeInput = z.input<
  NonNullable<(typeof previewSubscriptionChangeRoute)['body']>
>;

/**
 * `POST /v1/billing/preview-subscription-change` (issue 18): what an upgrade would charge now, prorated, or
 * when a downgrade would take effect. Changes nothing.
 */
export function previewSubscriptionChange(body: PreviewSubscriptionChangeInput, signal?: AbortSignal) {
  return apiRequest(previewSubscriptionChangeRoute, { body, signal });
}

export function previewSubscriptionChangeQueryOptions(body: PreviewSubscriptionChangeInput) {
  return queryOptions({
    // Outside `['billing']` on purpose: a quote is never refreshed by the change it quotes (invalidateBilling
    // after an upgrade would ask again, and the server answers 409 "already on this plan": issue 26 item 7).
    queryKey: ['billing-preview', body] as const,
    queryFn: ({ signal }) => previewSubscriptionChange(body, signal),
    // The proration moves by the second: read it afresh each time the dialog opens.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/**
 * The preview of the change in `body`, while it is given (the confirm dialog is open). `confirming`: the
 * change itself is on its way or done, so the quote shown holds still (no refetch on focus or otherwise:
 * asked after the change, the server would refuse it as nothing to change).
 */
export function usePreviewSubscriptionChange(
  body: PreviewSubscriptionChangeInput | null,
  { confirming = false }: { confirming?: boolean } = {},
) {
  return useQuery({
    ...previewSubscriptionChangeQueryOptions(
      body ?? { subscription_type: 'free', billing_period: 'monthly_period' },
    ),
    enabled: body !== null && !confirming,
  });
}
