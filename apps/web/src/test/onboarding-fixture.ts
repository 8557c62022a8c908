import {
  OnboardingChecklistResponse as ChecklistSchema,
  ONBOARDING_CHECKLIST_ITEMS,
  type OnboardingChecklistItemId,
  type OnboardingChecklistResponse,
} from '@parla/contracts';

/** A contract-valid checklist answer: started unless `started: false`, with these items done and acknowledged. */
export function makeChecklist({
  started = true,
  done = [],
  acknowledged = [],
  hidden = false,
  completed = false,
}: {
  started?: boolean;
  done?: OnboardingChecklistItemId[];
  acknowledged?: OnboardingChecklistItemId[];
  hidden?: boolean;
  completed?: boolean;
} = {}): OnboardingChecklistResponse {
  return ChecklistSchema.parse({
    checklist: started
      ? {
          checklist_id: 'c1',
          hidden,
          items: ONBOARDING_CHECKLIST_ITEMS.map((id) => ({
            onboarding_checklist_item_id: id,
            is_completed: done.includes(id),
            completed_at_unix: done.includes(id) ? 1_790_000_100 : null,
            is_acknowledged: acknowledged.includes(id),
          })),
        }
      : null,
    is_onboarding_checklist_completed: completed || !started,
  });
}
