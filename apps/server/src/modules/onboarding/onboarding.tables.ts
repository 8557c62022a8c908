import { boolean, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';

/** accounts §3 User.onboarding_survey. */
export interface OnboardingSurvey {
  first_name: string | null;
  role: string | null;
  subrole: string | null;
  timezone: string | null;
  source: string | null;
}

/** accounts §3 User.onboarding_checklist: each item's completion time (unix seconds) once its trigger fired. */
export interface StoredChecklist {
  checklist_id: string;
  /** acknowledged_at: when a client was handed the completion to congratulate on (once; onboarding module). */
  items: { id: string; completed_at: number | null; acknowledged_at?: number | null }[];
  hidden: boolean;
}

/**
 * A user's onboarding (accounts §3 is_onboarding_completed, is_onboarding_checklist_completed,
 * onboarding_survey, onboarding_checklist). An account made by sign-up gets a row with its survey pending;
 * no row (an account an operator made) is onboarded already.
 */
export const userOnboarding = pgTable('user_onboarding', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  isOnboardingCompleted: boolean('is_onboarding_completed').notNull().default(true),
  isOnboardingChecklistCompleted: boolean('is_onboarding_checklist_completed').notNull().default(true),
  onboardingSurvey: jsonb('onboarding_survey').$type<OnboardingSurvey>(),
  onboardingChecklist: jsonb('onboarding_checklist').$type<StoredChecklist>(),
});

export type UserOnboardingRow = typeof userOnboarding.$inferSelect;
