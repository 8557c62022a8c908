import { Link } from 'react-router';
import { useAuth } from '../../../lib/auth/auth-provider';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Card, CardContent, CardHeader } from '../../../ui/card';
import { LoadError } from '../../../ui/load-error';
import { Skeleton } from '../../../ui/skeleton';
import { useOnboardingChecklist } from '../api/get-onboarding-checklist';
import { useHideOnboardingChecklist } from '../api/hide-onboarding-checklist';
import { useMarkOnboardingChecklistComplete } from '../api/mark-onboarding-checklist-complete';
import { isChecklistActive } from '../checklist-items';
import { ChecklistItemsList, ChecklistProgress, shownChecklistItems } from './checklist-items-list';

/** How many open steps the widget lists. */
const openStepsShown = 3;

/**
 * The home page's compact checklist (accounts §4): progress, the next open steps with their pages, and
 * Hide. Shown only to a signed-in user whose checklist is started, showing and not marked complete.
 */
export function ChecklistWidget() {
  const { status } = useAuth();
  const checklist = useOnboardingChecklist({ enabled: status === 'signedIn' });
  const hide = useHideOnboardingChecklist();
  const markComplete = useMarkOnboardingChecklistComplete();
  const { toastError } = useToast();

  if (status !== 'signedIn') return null;
  if (checklist.isPending) {
    return (
      <Card aria-busy="true" aria-label="Onboarding checklist" className="p-5">
        <Skeleton className="h-5 w-40" />
        <Skeleton className="mt-4 h-2 w-full" />
        <Skeleton className="mt-4 h-10 w-full" />
      </Card>
    );
  }
  if (checklist.isError) {
    return (
      <Card aria-label="Onboarding checklist" className="p-5">
        <p className="mb-3 text-sm font-medium">Your onboarding checklist could not be loaded.</p>
        <LoadError error={checklist.error} onRetry={() => void checklist.refetch()} />
      </Card>
    );
  }
  const answer = checklist.data;
  if (!answer.checklist || !isChecklistActive(answer)) return null;
  const items = answer.checklist.items;
  const open = shownChecklistItems(items).filter((item) => !item.is_completed);

  return (
    <Card aria-labelledby="checklist-widget-title">
      <CardHeader>
        <div>
          <h2 id="checklist-widget-title" className="text-base font-semibold">
            Get started with Parla
          </h2>
          <p className="text-sm text-fg-muted">A few first steps to find your way around.</p>
        </div>
        <Button
          variant="ghost"
          size="sm"
          aria-disabled={hide.isPending}
          onClick={() => {
            if (!hide.isPending) hide.mutate(undefined, { onError: toastError });
          }}
        >
          Hide
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <ChecklistProgress items={items} />
        {open.length > 0 ? (
          <ChecklistItemsList items={open.slice(0, openStepsShown)} compact />
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-sm">Every step is done.</p>
            <Button
              size="sm"
              aria-disabled={markComplete.isPending}
              onClick={() => {
                if (!markComplete.isPending) markComplete.mutate(undefined, { onError: toastError });
              }}
            >
              Mark the checklist complete
            </Button>
          </div>
        )}
        <Link
          className="self-start rounded-sm text-sm font-medium text-accent hover:underline"
          to="/app/onboarding-checklist"
        >
          See the whole checklist
        </Link>
      </CardContent>
    </Card>
  );
}
