import type { UserResponse } from '@parla/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../../lib/auth/auth-provider';
import { afterSignInPath } from '../auth';
import { getUserQueryOptions } from '../users';
import { landingAfterSignIn } from './checklist-items';

/**
 * The page after sign-in or sign-up (features/auth afterSignInPath), with onboarding first for a user who
 * has not taken the survey (accounts §2 onboarding, §3 is_onboarding_completed). The cached user document
 * wins over the sign-in's snapshot, which does not see a survey taken since; `assumed` stands in while
 * neither has arrived (an account just created here has not taken the survey).
 */
export function useAfterSignInPath(
  search: URLSearchParams,
  assumed?: Pick<UserResponse, 'is_onboarding_completed'>,
): string {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const fresh = queryClient.getQueryData<UserResponse>(getUserQueryOptions().queryKey) ?? user ?? assumed;
  return landingAfterSignIn(afterSignInPath(search), fresh);
}
