import type { MfaChallengeResponse, SessionResponse, SubscriptionTier } from '@parla/contracts';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { startOnboarding } from '../onboarding';
import { getUser, getUserByEmail } from '../users';
import type { UserRow } from '../users/users.tables';
import { createUserWithWorkspace, workspaceForToken } from '../workspaces';
import { signAccessToken } from './access-token';
import { toSessionResponse } from './auth.present';
import { acceptTotpCode, hasSecondFactor, issueMfaChallenge, userOfMfaToken } from './mfa.service';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './password-hash';
import {
  type IssuedRefreshToken,
  issueRefreshToken,
  revokeRefreshToken,
  rotateRefreshToken,
} from './refresh-tokens.service';

export interface AuthDeps {
  db: Db;
  clock: Clock;
  signingSecret: () => Promise<string>;
}

/** A session for the client plus the refresh token for its cookie. */
export interface IssuedSession {
  session: SessionResponse;
  refresh: IssuedRefreshToken;
}

const WRONG_CREDENTIALS = 'Wrong email or password.';

async function sessionFor(
  deps: AuthDeps,
  userId: string,
  workspaceId: string,
  refresh: IssuedRefreshToken,
): Promise<IssuedSession> {
  const accessToken = signAccessToken({ userId, workspaceId }, await deps.signingSecret(), deps.clock.now());
  return {
    session: toSessionResponse(accessToken, userId, workspaceId),
    refresh,
  };
}

/** Creates an account with its own workspace (owner = admin) and signs it in. */
export async function signUp(
  deps: AuthDeps,
  input: {
    email: string;
    password: string;
    firstName?: string | undefined;
    agreesToProductUpdates?: boolean | undefined;
  },
): Promise<IssuedSession & { user: UserRow }> {
  if (await getUserByEmail(deps.db, input.email)) {
    throw new AppError('email_taken', 'An account with this email already exists. Sign in instead.');
  }
  const passwordHash = await hashPassword(input.password);
  let created: Awaited<ReturnType<typeof createUserWithWorkspace>>;
  try {
    created = await deps.db.transaction(async (tx) => {
      const made = await createUserWithWorkspace(tx, {
        email: input.email,
        firstName: input.firstName ?? null,
        passwordHash,
        agreesToProductUpdates: input.agreesToProductUpdates ?? false,
      });
      // accounts §3 is_onboarding_completed: an account made by sign-up goes through /app/onboarding.
      await startOnboarding(tx, made.user.id);
      return made;
    });
  } catch (error) {
    // Two sign-ups with one email at the same moment: the unique index lets one through.
    if (await getUserByEmail(deps.db, input.email)) {
      throw new AppError('email_taken', 'An account with this email already exists. Sign in instead.', {
        cause: error,
      });
    }
    throw error;
  }
  return { ...(await startSession(deps, created.user)), user: created.user };
}

/** A sign-in's outcome: a session, or the second-factor step for an account with one. */
export type SignInOutcome =
  | { kind: 'session'; issued: IssuedSession }
  | { kind: 'mfa'; challenge: MfaChallengeResponse };

/**
 * Signs in with email and password. A wrong password and an unknown email give the same answer after
 * the same work (issue 3: a wrong password never says whether the email exists). An account with a
 * second factor gets an MFA token instead of a session.
 */
export async function signIn(
  deps: AuthDeps,
  input: { email: string; password: string },
): Promise<SignInOutcome> {
  const user = await getUserByEmail(deps.db, input.email);
  const ok = user?.passwordHash
    ? await verifyPassword(user.passwordHash, input.password)
    : await verifyAgainstNothing(input.password);
  if (!user || !ok || !user.workspaceId) throw new AppError('invalid_credentials', WRONG_CREDENTIALS);
  if (await hasSecondFactor(deps.db, user.id))
    return { kind: 'mfa', challenge: await issueMfaChallenge(deps, user) };
  return { kind: 'session', issued: await startSession(deps, user) };
}

/** A new sign-in (a new refresh-token family) for a user. */
export async function startSession(deps: AuthDeps, user: UserRow): Promise<IssuedSession> {
  if (!user.workspaceId) throw new AppError('invalid_credentials', WRONG_CREDENTIALS);
  const refresh = await issueRefreshToken(deps.db, { userId: user.id, now: deps.clock.now() });
  return sessionFor(deps, user.id, await workspaceForToken(deps.db, user), refresh);
}

/** The second step of a sign-in with a second factor: the MFA token and a code from the app. */
export async function completeMfaSignIn(
  deps: AuthDeps,
  input: { mfaToken: string; code: string },
): Promise<IssuedSession> {
  const user = await userOfMfaToken(deps, input.mfaToken);
  await acceptTotpCode(deps, user, input.code);
  return startSession(deps, user);
}

/**
 * Exchanges a refresh token for a new session; a token repeated within the grace window gets the same
 * successor, a replayed one has already revoked its family.
 */
export async function refreshSession(deps: AuthDeps, token: string | undefined): Promise<IssuedSession> {
  const expired = new AppError('unauthorized', 'Your session has ended. Please sign in again.');
  if (!token) throw expired;
  const result = await rotateRefreshToken(deps.db, token, deps.clock.now(), await deps.signingSecret());
  if (result.outcome !== 'rotated') throw expired;
  const user = await getUser(deps.db, result.next.userId);
  if (!user?.workspaceId) throw expired;
  return sessionFor(deps, user.id, await workspaceForToken(deps.db, user), result.next);
}

/** Ends the sign-in the token belongs to (all of its family). */
export async function signOut(deps: AuthDeps, token: string | undefined): Promise<void> {
  if (token) await revokeRefreshToken(deps.db, token, deps.clock.now());
}

/**
 * An account made by the server's operator (`npm run admin -- create-user`): its email verified, a
 * password, its own workspace on `tier`; no onboarding survey (it is not a sign-up).
 */
export async function createAccountWithPassword(
  db: Db,
  input: { email: string; password: string; firstName: string | null; tier: SubscriptionTier; now: Date },
): Promise<{ user: UserRow; workspaceId: string }> {
  if (await getUserByEmail(db, input.email)) {
    throw new AppError('email_taken', `An account with the email ${input.email} already exists.`);
  }
  const { user, workspace } = await createUserWithWorkspace(db, {
    email: input.email,
    firstName: input.firstName,
    passwordHash: await hashPassword(input.password),
    emailVerifiedAt: input.now,
    tier: input.tier,
  });
  return { user, workspaceId: workspace.id };
}
