import { completeOnboardingSurveyRoute, type OnboardingSurveyRequest } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { getUserQueryOptions } from '../../users';
import { patchCachedUser } from './onboarding-query-keys';

/** `POST /v1/user/onboarding-survey-complete` (accounts §7). */
export function completeOnboardingSurvey(answers: OnboardingSurveyRequest): Promise<{ status: 'ok' }> {
  return apiRequest(completeOnboardingSurveyRoute, { body: answers });
}

/** Sends the survey; the cached user is onboarded at once (the sign-in pages read it), then loads again. */
export function useCompleteOnboardingSurvey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeOnboardingSurvey,
    onSuccess: async (_answer, answers) => {
      patchCachedUser(queryClient, {
        is_onboarding_completed: true,
        onboarding_survey: {
          first_name: answers.first_name,
          role: answers.role,
          subrole: answers.subrole ?? null,
          timezone: answers.timezone,
          source: answers.source ?? null,
        },
      });
      await queryClient.invalidateQueries({ queryKey: getUserQueryOptions().queryKey, exact: true });
    },
  });
}
