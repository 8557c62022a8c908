import { markOnboardingChecklistCompleteRoute, type OnboardingChecklistResponse } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { storeChecklist } from './onboarding-query-keys';

/** `POST /v1/user/onboarding-checklist/mark-complete`: marks the checklist complete. */
export function markOnboardingChecklistComplete(): Promise<OnboardingChecklistResponse> {
  return apiRequest(markOnboardingChecklistCompleteRoute);
}

/** markOnboardingChecklistComplete as a mutation; its answer becomes the cached checklist. */
export function useMarkOnboardingChecklistComplete() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markOnboardingChecklistComplete,
    onSuccess: (answer) => storeChecklist(queryClient, answer),
  });
}
