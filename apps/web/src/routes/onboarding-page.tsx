import type { OnboardingSurveyRequest } from '@parla/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useCompleteOnboardingSurvey } from '../features/onboarding/api/complete-onboarding-survey';
import { initiateOnboardingChecklist } from '../features/onboarding/api/initiate-onboarding-checklist';
import { storeChecklist } from '../features/onboarding/api/onboarding-query-keys';
import { onboardingNextPath } from '../features/onboarding/checklist-items';
import { OnboardingSurveyForm } from '../features/onboarding/components/onboarding-survey-form';
import { browserTimeZone } from '../features/onboarding/survey-rules';
import { useUser } from '../features/users/api/get-user';
import { getToastMessage } from '../lib/http-error';
import { Card, CardContent } from '../ui/card';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/** `/app/onboarding` (accounts §2): the survey a new account fills in, then `/app/onboarding/next`. */
export default function OnboardingPage() {
  return (
    <RequireSignIn>
      <Onboarding />
    </RequireSignIn>
  );
}

function Onboarding() {
  const user = useUser();
  const survey = useCompleteOnboardingSurvey();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [search] = useSearchParams();

  const handleSubmit = async (answers: OnboardingSurveyRequest) => {
    try {
      await survey.mutateAsync(answers);
    } catch {
      return; // shown by the form from survey.error
    }
    // The checklist starts with onboarding; if that call fails, the checklist page offers to start it.
    await initiateOnboardingChecklist().then(
      (answer) => storeChecklist(queryClient, answer),
      () => undefined,
    );
    const redirect = search.get('redirect');
    await navigate(
      redirect ? `${onboardingNextPath}?redirect=${encodeURIComponent(redirect)}` : onboardingNextPath,
    );
  };

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-12 sm:px-6">
      <div>
        <p className="text-sm font-medium text-accent">Step 1 of 2</p>
        <h1 className="mt-2 text-3xl font-semibold tracking-tight">Welcome to Parla</h1>
        <p className="mt-2 text-fg-muted">
          Tell us a little about yourself, so we can point you to the right places.
        </p>
      </div>
      <Card>
        <CardContent className="py-6">
          {user.isPending && (
            <div aria-busy="true" className="flex flex-col gap-4">
              <Skeleton className="h-10 w-full" />
              <Skeleton className="h-32 w-full" />
              <Skeleton className="h-10 w-full" />
            </div>
          )}
          {user.isError && <LoadError error={user.error} onRetry={() => void user.refetch()} />}
          {user.data && (
            <OnboardingSurveyForm
              initial={{
                first_name: user.data.first_name ?? user.data.onboarding_survey?.first_name ?? '',
                role: user.data.onboarding_survey?.role ?? '',
                subrole: user.data.onboarding_survey?.subrole ?? '',
                timezone: user.data.onboarding_survey?.timezone ?? browserTimeZone(),
                source: user.data.onboarding_survey?.source ?? '',
              }}
              busy={survey.isPending}
              error={survey.error ? getToastMessage(survey.error) : undefined}
              onSubmit={handleSubmit}
            />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
