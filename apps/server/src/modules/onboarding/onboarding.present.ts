import {
  ONBOARDING_CHECKLIST_ITEMS,
  type OnboardingChecklist,
  type OnboardingChecklistItemId,
  type OnboardingChecklistResponse,
  type UserResponse,
} from '@parla/contracts';
import type { ChecklistState } from './onboarding.store';
import type { OnboardingSurvey, StoredChecklist, UserOnboardingRow } from './onboarding.tables';

type StoredItem = StoredChecklist['items'][number];

function isKnownItem(item: StoredItem): item is StoredItem & { id: OnboardingChecklistItemId } {
  return (ONBOARDING_CHECKLIST_ITEMS as readonly string[]).includes(item.id);
}

/** The stored checklist as the checklist calls answer it (items of an older list that are gone are left out). */
export function toOnboardingChecklist(checklist: StoredChecklist): OnboardingChecklist {
  return {
    checklist_id: checklist.checklist_id,
    items: checklist.items.filter(isKnownItem).map((item) => ({
      onboarding_checklist_item_id: item.id,
      is_completed: item.completed_at !== null,
      completed_at_unix: item.completed_at,
      is_acknowledged: item.acknowledged_at != null,
    })),
    hidden: checklist.hidden,
  };
}

export function toOnboardingChecklistResponse(state: ChecklistState): OnboardingChecklistResponse {
  return {
    checklist: state.checklist ? toOnboardingChecklist(state.checklist) : null,
    is_onboarding_checklist_completed: state.completed,
  };
}

/** What `GET /v1/user` shows of a user's onboarding (accounts §3). */
export type UserOnboarding = Pick<
  UserResponse,
  | 'is_onboarding_completed'
  | 'is_onboarding_checklist_completed'
  | 'onboarding_survey'
  | 'onboarding_checklist'
>;

/** accounts §3 is_onboarding_completed, …_checklist_completed, onboarding_survey and _checklist for `GET /v1/user`. */
export function toUserOnboarding(row: UserOnboardingRow | undefined): UserOnboarding {
  const survey: OnboardingSurvey | null = row?.onboardingSurvey ?? null;
  const stored: StoredChecklist | null = row?.onboardingChecklist ?? null;
  const checklist = stored && toOnboardingChecklist(stored);
  return {
    // No row: an account an operator made, onboarded already.
    is_onboarding_completed: row?.isOnboardingCompleted ?? true,
    is_onboarding_checklist_completed: row?.isOnboardingChecklistCompleted ?? true,
    onboarding_survey: survey && {
      first_name: survey.first_name ?? null,
      role: survey.role ?? null,
      subrole: survey.subrole ?? null,
      timezone: survey.timezone ?? null,
      source: survey.source ?? null,
    },
    onboarding_checklist: checklist && {
      checklist_id: checklist.checklist_id,
      items: checklist.items.map((item) => ({
        onboarding_checklist_item_id: item.onboarding_checklist_item_id,
        is_completed: item.is_completed,
      })),
      hidden: checklist.hidden,
    },
  };
}
