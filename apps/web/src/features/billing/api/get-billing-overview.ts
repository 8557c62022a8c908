import { type BillingOverview, getBillingOverviewRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { billingQueryKeys } from './billing-query-keys';

/** `GET /v1/billing/overview`: provider, schedule, payment method, discount and invoices of the workspace. */
export function getBillingOverview(signal?: AbortSignal): Promise<BillingOverview> {
  return apiRequest(getBillingOverviewRoute, { signal });
}

export function getBillingOverviewQueryOptions() {
  return queryOptions({
    queryKey: billingQueryKeys.overview,
    queryFn: ({ signal }) => getBillingOverview(signal),
  });
}

export function useBillingOverview({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getBillingOverviewQueryOptions(), enabled });
}
