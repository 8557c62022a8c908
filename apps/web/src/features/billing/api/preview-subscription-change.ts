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
    queryKey: ['billing', 'preview-subscription-change', body] as const,
    queryFn: ({ signal }) => previewSubscriptionChange(body, signal),
    // The proration moves by the second: read it afresh each time the dialog opens.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** The preview of the change in `body`, while it is given (the confirm dialog is open). */
export function usePreviewSubscriptionChange(body: PreviewSubscriptionChangeInput | null) {
  return useQuery({
    ...previewSubscriptionChangeQueryOptions(
      body ?? { subscription_type: 'free', billing_period: 'monthly_period' },
    ),
    enabled: body !== null,
  });
}
