import { Link, useSearchParams } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { afterSignInPath } from '../features/auth/post-login';
import { useOnboardingChecklist } from '../features/onboarding/api/get-onboarding-checklist';
import { useInitiateOnboardingChecklist } from '../features/onboarding/api/initiate-onboarding-checklist';
import { ChecklistItemsList } from '../features/onboarding/components/checklist-items-list';
import { useUser } from '../features/users/api/get-user';
import { useToast } from '../lib/toasts/use-toast';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/onboarding/next` (accounts §2 "onboarding (and next)"): after the survey, the checklist's first
 * steps, then on to the page the user was headed for (`redirect`) or the usual landing page.
 */
export default function OnboardingNextPage() {
  return (
    <RequireSignIn>
      <OnboardingNext />
    </RequireSignIn>
  );
}

function OnboardingNext() {
  const [search] = useSearchParams();
  const user = useUser();
  const checklist = useOnboardingChecklist();
  const initiate = useInitiateOnboardingChecklist();
  const { toastError } = useToast();
  const name = user.data?.first_name;

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-12 sm:px-6">
      <div>
        <p className="text-sm font-medium text-accent">Step 2 of 2</p>
        <h1 className="mt-2 text-3xl font-semibold tracking-tight">
          {name ? `You’re all set, ${name}` : 'You’re all set'}
        </h1>
        <p className="mt-2 text-fg-muted">
          Here is a checklist of first steps. Each one ticks itself off when you do it, and you can find the
          list again on the home page.
        </p>
      </div>
      <Card>
        <CardContent>
          {checklist.isPending && (
            <div aria-busy="true" className="flex flex-col gap-3 py-2">
              <Skeleton className="h-6 w-full" />
              <Skeleton className="h-6 w-full" />
              <Skeleton className="h-6 w-full" />
            </div>
          )}
          {checklist.isError && (
            <LoadError className="py-2" error={checklist.error} onRetry={() => void checklist.refetch()} />
          )}
          {checklist.data?.checklist && <ChecklistItemsList items={checklist.data.checklist.items} compact />}
          {checklist.data && !checklist.data.checklist && (
            <div className="flex flex-col items-start gap-3 py-2">
              <p className="text-sm text-fg-muted">Your checklist has not been started.</p>
              <Button
                variant="secondary"
                aria-disabled={initiate.isPending}
                onClick={() => {
                  if (!initiate.isPending) initiate.mutate(undefined, { onError: toastError });
                }}
              >
                Start the checklist
              </Button>
            </div>
          )}
        </CardContent>
      </Card>
      <div className="flex flex-wrap gap-3">
        <Button asChild>
          <Link to={afterSignInPath(search)}>Continue</Link>
        </Button>
        <Button variant="secondary" asChild>
          <Link to="/app/onboarding-checklist">Open the checklist</Link>
        </Button>
      </div>
    </div>
  );
}
