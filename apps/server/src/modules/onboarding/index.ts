/** The onboarding module's front door: what other modules may do (issue 26 item 1; the rest is its own). */
export type { UserOnboarding } from './onboarding.present';
export { startOnboarding, userOnboardingOf } from './onboarding.service';
