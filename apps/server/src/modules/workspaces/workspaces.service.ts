import type { SubscriptionTier } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { newId } from '../../platform/ids';
import { insertUser, setUserWorkspace } from '../users';
import type { UserRow } from '../users/users.tables';
import { insertWorkspaceWithOwner } from './workspaces.store';
import type { WorkspaceRow } from './workspaces.tables';

/**
 * Creates a user with their own workspace in one transaction: every new user gets a workspace they
 * own as admin (accounts doc §1, §3). Sign-up calls this.
 */
export async function createUserWithWorkspace(
  db: Db,
  input: {
    email: string;
    firstName?: string | null;
    passwordHash?: string | null;
    agreesToProductUpdates?: boolean;
    emailVerifiedAt?: Date | null;
    tier?: SubscriptionTier;
    /** accounts §3 is_onboarding_completed: an account made by sign-up goes through /app/onboarding. */
    onboardingPending?: boolean;
  },
): Promise<{ user: UserRow; workspace: WorkspaceRow }> {
  return db.transaction(async (tx) => {
    const user = await insertUser(tx, {
      id: newId(),
      email: input.email.toLowerCase(),
      firstName: input.firstName ?? null,
      passwordHash: input.passwordHash ?? null,
      agreesToProductUpdates: input.agreesToProductUpdates ?? false,
      emailVerifiedAt: input.emailVerifiedAt ?? null,
      isOnboardingCompleted: !input.onboardingPending,
    });
    const name = input.firstName ? `${input.firstName}'s Workspace` : 'My Workspace';
    const workspace = await insertWorkspaceWithOwner(tx, {
      id: newId(),
      name,
      ownerId: user.id,
      tier: input.tier ?? 'free',
    });
    await setUserWorkspace(tx, user.id, workspace.id);
    return { user: { ...user, workspaceId: workspace.id }, workspace };
  });
}
