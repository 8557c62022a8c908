import { getOnboardingChecklistRoute, type OnboardingChecklistResponse } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { onboardingQueryKeys } from './onboarding-query-keys';

/** `GET /v1/user/onboarding-checklist` (accounts §7 "a fetch of the checklist"). */
export function getOnboardingChecklist(signal?: AbortSignal): Promise<OnboardingChecklistResponse> {
  return apiRequest(getOnboardingChecklistRoute, { signal });
}

export function getOnboardingChecklistQueryOptions() {
  return queryOptions({
    queryKey: onboardingQueryKeys.checklist,
    queryFn: ({ signal }) => getOnboardingChecklist(signal),
  });
}

/**
 * The checklist; pass `enabled: false` while nobody is signed in, and `pollEvery` (ms, or false) to load it
 * again while the tab is in view.
 */
export function useOnboardingChecklist({
  enabled = true,
  pollEvery,
}: {
  enabled?: boolean;
  pollEvery?: (answer: OnboardingChecklistResponse | undefined) => number | false;
} = {}) {
  return useQuery({
    ...getOnboardingChecklistQueryOptions(),
    enabled,
    refetchInterval: pollEvery ? (query) => pollEvery(query.state.data) : false,
  });
}
