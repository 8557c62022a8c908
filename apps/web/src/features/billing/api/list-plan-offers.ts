import { type Currency, listPlanOffersRoute, type PlanOffer } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { billingQueryKeys } from './billing-query-keys';

/** `GET /v1/billing/plans?currency=` (accounts §3 "Plan offer"): the cards, no sign-in needed. */
export async function listPlanOffers(currency: Currency, signal?: AbortSignal): Promise<PlanOffer[]> {
  const answer = await apiRequest(listPlanOffersRoute, { query: { currency }, signal });
  return answer.plans;
}

export function listPlanOffersQueryOptions(currency: Currency, signedIn: boolean) {
  return queryOptions({
    queryKey: billingQueryKeys.plans(currency, signedIn),
    queryFn: ({ signal }) => listPlanOffers(currency, signal),
    staleTime: 5 * 60_000,
  });
}

export function usePlanOffers(currency: Currency, signedIn: boolean) {
  return useQuery(listPlanOffersQueryOptions(currency, signedIn));
}
