import {
  ONBOARDING_CHECKLIST_ITEMS,
  type OnboardingChecklist,
  type OnboardingChecklistItemId,
  type OnboardingChecklistResponse,
  type UserResponse,
} from '@parla/contracts';
import type { OnboardingSurvey, StoredChecklist } from '../users/users.tables';
import type { ChecklistState } from './onboarding.store';

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

/** accounts §3 User.onboarding_survey and User.onboarding_checklist for `GET /v1/user`. */
export function toUserOnboarding(user: {
  onboardingSurvey: OnboardingSurvey | null;
  onboardingChecklist: StoredChecklist | null;
}): Pick<UserResponse, 'onboarding_survey' | 'onboarding_checklist'> {
  const survey = user.onboardingSurvey;
  const checklist = user.onboardingChecklist && toOnboardingChecklist(user.onboardingChecklist);
  return {
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
