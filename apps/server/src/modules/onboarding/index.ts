/** The onboarding module's front door: what other modules may use (issue 17; the rest is its own). */
export { toUserOnboarding } from './onboarding.present';
