import type { OnboardingChecklistResponse, UserResponse } from '@parla/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { getUserQueryOptions } from '../../users';

export const onboardingQueryKeys = {
  /** `GET /v1/user/onboarding-checklist`; under the user's key, so sign-out's cache clear takes it too. */
  checklist: ['users', 'me', 'onboarding-checklist'] as const,
};

/** Keeps a checklist call's answer as the checklist, and has the user document load again. */
export function storeChecklist(queryClient: QueryClient, answer: OnboardingChecklistResponse): void {
  queryClient.setQueryData<OnboardingChecklistResponse>(onboardingQueryKeys.checklist, {
    checklist: answer.checklist,
    is_onboarding_checklist_completed: answer.is_onboarding_checklist_completed,
  });
  void queryClient.invalidateQueries({ queryKey: getUserQueryOptions().queryKey, exact: true });
}

/** Changes the cached user document at once (the sign-in pages read it to decide about onboarding). */
export function patchCachedUser(queryClient: QueryClient, patch: Partial<UserResponse>): void {
  queryClient.setQueryData<UserResponse>(getUserQueryOptions().queryKey, (user) =>
    user ? { ...user, ...patch } : user,
  );
}
