import { checklistStepMessage } from '@parla/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useAuth } from '../../../lib/auth/auth-provider';
import { useToast } from '../../../lib/toasts/use-toast';
import { acknowledgeOnboardingChecklist } from '../api/acknowledge-onboarding-checklist';
import { useOnboardingChecklist } from '../api/get-onboarding-checklist';
import { onboardingQueryKeys, storeChecklist } from '../api/onboarding-query-keys';
import { checklistItemGuides, isChecklistActive, unacknowledgedItems } from '../checklist-items';

/** How often an active checklist is looked at while the tab is in view (steps complete on the server). */
export const checklistPollMs = 15_000;

/**
 * Congratulates on each completed checklist step once (accounts §4 "then not re-sent", §8 "Checklist
 * step"). Steps complete on the server when their trigger fires; this watches the checklist while it is
 * active (in view, and after every successful change the app makes), and takes new completions with the
 * acknowledge call, which hands each out once, whatever tab or device asks first.
 */
export function ChecklistStepNotifier() {
  const { status } = useAuth();
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const signedIn = status === 'signedIn';
  const checklist = useOnboardingChecklist({
    enabled: signedIn,
    pollEvery: (answer) => (isChecklistActive(answer) ? checklistPollMs : false),
  });
  const active = isChecklistActive(checklist.data);
  const pending = active ? unacknowledgedItems(checklist.data).join(',') : '';
  const loadedAt = checklist.dataUpdatedAt;
  const asking = useRef(false);

  // A change the app made (a key created, a voice added…) may have completed a step: look again.
  useEffect(() => {
    if (!signedIn || !active) return;
    return queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'success') {
        void queryClient.invalidateQueries({ queryKey: onboardingQueryKeys.checklist, exact: true });
      }
    });
  }, [signedIn, active, queryClient]);

  // Each load that shows unacknowledged steps asks (again, after a failed call).
  useEffect(() => {
    if (!pending || !loadedAt || asking.current) return;
    asking.current = true;
    acknowledgeOnboardingChecklist()
      .then((answer) => {
        storeChecklist(queryClient, answer);
        for (const item of answer.acknowledged) {
          toast({
            title: checklistStepMessage,
            description: checklistItemGuides[item].title,
            variant: 'success',
          });
        }
      })
      // A failed call hands nothing out; the next look tries again.
      .catch(() => undefined)
      .finally(() => {
        asking.current = false;
      });
  }, [pending, loadedAt, queryClient, toast]);

  return null;
}
