import { initiateOnboardingChecklistRoute, type OnboardingChecklistResponse } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { storeChecklist } from './onboarding-query-keys';

/** `POST /v1/user/onboarding-checklist/initiate`: starts the checklist (a started one stays as it is). */
export function initiateOnboardingChecklist(): Promise<OnboardingChecklistResponse> {
  return apiRequest(initiateOnboardingChecklistRoute);
}

/** initiateOnboardingChecklist as a mutation; its answer becomes the cached checklist. */
export function useInitiateOnboardingChecklist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: initiateOnboardingChecklist,
    onSuccess: (answer) => storeChecklist(queryClient, answer),
  });
}
