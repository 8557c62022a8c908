import { hideOnboardingChecklistRoute, type OnboardingChecklistResponse } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { storeChecklist } from './onboarding-query-keys';

/** `POST /v1/user/onboarding-checklist/hide`: hides the checklist (its steps still complete). */
export function hideOnboardingChecklist(): Promise<OnboardingChecklistResponse> {
  return apiRequest(hideOnboardingChecklistRoute);
}

/** hideOnboardingChecklist as a mutation; its answer becomes the cached checklist. */
export function useHideOnboardingChecklist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: hideOnboardingChecklist,
    onSuccess: (answer) => storeChecklist(queryClient, answer),
  });
}
