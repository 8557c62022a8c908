import { Link } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useOnboardingChecklist } from '../features/onboarding/api/get-onboarding-checklist';
import { useHideOnboardingChecklist } from '../features/onboarding/api/hide-onboarding-checklist';
import { useInitiateOnboardingChecklist } from '../features/onboarding/api/initiate-onboarding-checklist';
import { useMarkOnboardingChecklistComplete } from '../features/onboarding/api/mark-onboarding-checklist-complete';
import { checklistProgress } from '../features/onboarding/checklist-items';
import {
  ChecklistItemsList,
  ChecklistProgress,
  shownChecklistItems,
} from '../features/onboarding/components/checklist-items-list';
import { useToast } from '../lib/toasts/use-toast';
import { Button } from '../ui/button';
import { Card, CardContent, CardHeader } from '../ui/card';
import { FormMessage } from '../ui/field';
import { LoadError } from '../ui/load-error';
import { Skeleton, SkeletonRow } from '../ui/skeleton';

/** `/app/onboarding-checklist` (accounts §2, §4): every step with its state and page; hide; mark complete. */
export default function OnboardingChecklistPage() {
  return (
    <RequireSignIn>
      <OnboardingChecklist />
    </RequireSignIn>
  );
}

function OnboardingChecklist() {
  const checklist = useOnboardingChecklist();
  const initiate = useInitiateOnboardingChecklist();
  const hide = useHideOnboardingChecklist();
  const markComplete = useMarkOnboardingChecklistComplete();
  const { toastError } = useToast();
  const run = (change: typeof hide) => {
    if (!change.isPending) change.mutate(undefined, { onError: toastError });
  };
  const answer = checklist.data;
  const list = answer?.checklist;
  const shown = list ? shownChecklistItems(list.items) : [];
  const allDone = list ? checklistProgress(shown).done === shown.length : false;

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-12 sm:px-6">
      <div>
        <h1 className="text-3xl font-semibold tracking-tight">Onboarding checklist</h1>
        <p className="mt-2 text-fg-muted">
          First steps in Parla. Each one ticks itself off when you do it, once.
        </p>
      </div>

      {checklist.isPending && (
        <Card aria-busy="true">
          <CardHeader>
            <Skeleton className="h-5 w-48" />
          </CardHeader>
          <ul>
            <SkeletonRow lineWidths={['w-48', 'w-72']} />
            <SkeletonRow lineWidths={['w-40', 'w-64']} />
            <SkeletonRow lineWidths={['w-52', 'w-60']} />
          </ul>
        </Card>
      )}

      {checklist.isError && <LoadError error={checklist.error} onRetry={() => void checklist.refetch()} />}

      {answer && !list && (
        <Card>
          <CardContent className="flex flex-col items-start gap-3 py-6">
            <h2 className="text-base font-semibold">Your checklist has not been started</h2>
            <p className="text-sm text-fg-muted">
              Start it to get a short list of first steps, each with the page where you do it.
            </p>
            <Button aria-disabled={initiate.isPending} onClick={() => run(initiate)}>
              Start the checklist
            </Button>
          </CardContent>
        </Card>
      )}

      {answer && list && (
        <Card>
          <CardHeader>
            <div className="flex min-w-0 flex-1 flex-col gap-3">
              <h2 className="text-base font-semibold">Your first steps</h2>
              <ChecklistProgress items={list.items} />
            </div>
            <div className="flex shrink-0 flex-wrap justify-end gap-2">
              {!list.hidden && (
                <Button variant="ghost" size="sm" aria-disabled={hide.isPending} onClick={() => run(hide)}>
                  Hide
                </Button>
              )}
              {!answer.is_onboarding_checklist_completed && (
                <Button
                  variant={allDone ? 'primary' : 'secondary'}
                  size="sm"
                  aria-disabled={markComplete.isPending}
                  onClick={() => run(markComplete)}
                >
                  Mark as complete
                </Button>
              )}
            </div>
          </CardHeader>
          <CardContent className="flex flex-col gap-3 py-0">
            {answer.is_onboarding_checklist_completed && (
              <div className="pt-4">
                <FormMessage tone="success">You have marked the checklist complete.</FormMessage>
              </div>
            )}
            {list.hidden && !answer.is_onboarding_checklist_completed && (
              <p className="pt-4 text-sm text-fg-muted">
                The checklist is hidden from the home page. Its steps still tick off here.
              </p>
            )}
            <ChecklistItemsList items={list.items} />
          </CardContent>
        </Card>
      )}

      <Link className="self-start rounded-sm text-sm font-medium text-accent hover:underline" to="/app/home">
        Back to the home page
      </Link>
    </div>
  );
}
