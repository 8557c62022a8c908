import type { OnboardingChecklistResponse } from '@parla/contracts';
import { acknowledgeOnboardingChecklistRoute, type OnboardingChecklistItemId } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /v1/user/onboarding-checklist/acknowledge`: the items completed since anyone last asked; the
 * server hands each out once, so the congratulation shows once whichever tab asks first.
 */
export function acknowledgeOnboardingChecklist(): Promise<
  OnboardingChecklistResponse & { acknowledged: OnboardingChecklistItemId[] }
> {
  return apiRequest(acknowledgeOnboardingChecklistRoute, {});
}
