import {
  applyEmailVerificationRoute,
  checkPasswordResetCodeRoute,
  confirmPasswordResetRoute,
  createBackupCodeRoute,
  optOutOfUpdatesRoute,
  refreshSessionRoute,
  removeMfaWithBackupCodeRoute,
  sendPasswordResetEmailRoute,
  sendVerificationEmailRoute,
  signInMfaRoute,
  signInRoute,
  signOutRoute,
  signUpRoute,
  updateMfaFactorsRoute,
  verifySignInRequestRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { consentDepsOf, ensureGeoLocation } from '../consent';
import { requireUser } from '../users';
import {
  accountActionDepsOf,
  applyEmailVerification,
  checkPasswordResetCode,
  confirmPasswordReset,
  mailVerification,
  optOutOfUpdates,
  sendPasswordResetEmail,
  sendVerificationEmail,
  verifySignInRequest,
} from './account-actions.service';
import {
  type AuthDeps,
  completeMfaSignIn,
  type IssuedSession,
  refreshSession,
  signIn,
  signOut,
  signUp,
  startSession,
} from './auth.service';
import {
  confirmTotp,
  createBackupCode,
  enrollTotp,
  removeMfaWithBackupCode,
  removeTotp,
  userOfMfaToken,
} from './mfa.service';

/** The refresh cookie: httpOnly, SameSite=Strict, only sent to the auth routes (issue 3 "Tokens"). */
export const REFRESH_COOKIE = 'xi_refresh';
const COOKIE_PATH = '/v1/auth';

const ok = { status: 'ok' as const };

const perMinutes = (max: number, minutes: number) => ({
  config: { rateLimit: { max, timeWindow: minutes * 60_000 } },
});

/**
 * Sessions (sign-up, sign-in with its second-factor step, refresh, sign-out), the account actions of the
 * emailed links, and the second factor. Each public call has its own rate limit per client address.
 */
export async function authRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const db = deps.database.db;
  const auth: AuthDeps = { db, clock: deps.clock, signingSecret: deps.auth.signingSecret };
  const actions = accountActionDepsOf(deps);
  // Every set and clear of the cookie (sign-up, sign-in and its second step, the backup-code sign-in,
  // refresh, sign-out) goes through these two, with the same attributes.
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'strict',
    secure: deps.config.secureCookies,
    path: COOKIE_PATH,
  } as const;
  const withCookie = (reply: FastifyReply, issued: IssuedSession) => {
    reply.setCookie(REFRESH_COOKIE, issued.refresh.token, {
      ...cookieOptions,
      expires: issued.refresh.expiresAt,
    });
    return issued.session;
  };
  const clearCookie = (reply: FastifyReply) => reply.clearCookie(REFRESH_COOKIE, cookieOptions);

  registerRoute(
    app,
    signUpRoute,
    async ({ body, request, reply }) => {
      const created = await signUp(auth, {
        email: body.email,
        password: body.password,
        firstName: body.first_name,
        agreesToProductUpdates: body.agrees_to_product_updates,
      });
      // The account exists either way; a mail server that is down must not undo the sign-up (the
      // verification mail can be sent again from the app).
      await mailVerification(actions, created.user, body.continue_url).catch((error: unknown) => {
        deps.logger.warn({ err: error }, 'the verification mail of a new account was not sent');
      });
      // accounts §3 geo_location from the sign-up's address (offline lookup), for the §4 consent rules.
      await ensureGeoLocation(consentDepsOf(deps), created.user.id, request.ip).catch((error: unknown) => {
        deps.logger.warn({ err: error }, 'the location of a new account was not recorded');
      });
      return withCookie(reply, created);
    },
    perMinutes(10, 60),
  );
  registerRoute(
    app,
    signInRoute,
    async ({ body, reply }) => {
      const outcome = await signIn(auth, body);
      return outcome.kind === 'mfa' ? outcome.challenge : withCookie(reply, outcome.issued);
    },
    perMinutes(10, 5),
  );
  registerRoute(
    app,
    signInMfaRoute,
    async ({ body, reply }) =>
      withCookie(reply, await completeMfaSignIn(auth, { mfaToken: body.mfa_token, code: body.code })),
    perMinutes(10, 5),
  );
  registerRoute(
    app,
    refreshSessionRoute,
    async ({ request, reply }) => {
      try {
        return withCookie(reply, await refreshSession(auth, request.cookies[REFRESH_COOKIE]));
      } catch (error) {
        clearCookie(reply);
        throw error;
      }
    },
    perMinutes(60, 1),
  );
  registerRoute(app, signOutRoute, async ({ request, reply }) => {
    await signOut(auth, request.cookies[REFRESH_COOKIE]);
    clearCookie(reply);
    return ok;
  });

  // The emailed links (accounts §2 account-action landing page).
  registerRoute(
    app,
    sendVerificationEmailRoute,
    async ({ body }) => {
      await sendVerificationEmail(actions, { email: body.email, continueUrl: body.continue_url });
      return ok;
    },
    perMinutes(5, 15),
  );
  registerRoute(
    app,
    sendPasswordResetEmailRoute,
    async ({ body }) => {
      await sendPasswordResetEmail(actions, { email: body.email, continueUrl: body.continue_url });
      return ok;
    },
    perMinutes(5, 15),
  );
  registerRoute(
    app,
    checkPasswordResetCodeRoute,
    async ({ body }) => ({ email: await checkPasswordResetCode(actions, body.actionCode) }),
    perMinutes(20, 15),
  );
  registerRoute(
    app,
    confirmPasswordResetRoute,
    async ({ body }) => {
      await confirmPasswordReset(actions, { code: body.actionCode, newPassword: body.newPassword });
      return ok;
    },
    perMinutes(10, 15),
  );
  registerRoute(
    app,
    applyEmailVerificationRoute,
    async ({ body }) => ({
      status: 'ok' as const,
      email: await applyEmailVerification(actions, body.actionCode),
    }),
    perMinutes(20, 15),
  );
  registerRoute(
    app,
    optOutOfUpdatesRoute,
    async ({ body }) => {
      await optOutOfUpdates(actions, body.opt_out_updates_key);
      return ok;
    },
    perMinutes(20, 15),
  );
  registerRoute(
    app,
    verifySignInRequestRoute,
    async ({ body }) => {
      await verifySignInRequest(actions, body.sign_in_request_verification_code);
      return ok;
    },
    perMinutes(20, 15),
  );

  // The second factor.
  registerRoute(
    app,
    updateMfaFactorsRoute,
    async ({ request, body }) => {
      const user = await requireUser(db, principalOf(request).userId);
      if (body.action === 'enroll_totp') {
        const { secret, otpauthUrl } = await enrollTotp(auth, user);
        return { totp_mfa_factor: { enabled: false }, totp_secret: secret, otpauth_url: otpauthUrl };
      }
      if (body.action === 'verify_totp') {
        const backupCode = await confirmTotp(auth, user, body.code);
        return { totp_mfa_factor: { enabled: true }, backup_code: backupCode };
      }
      await removeTotp(auth, user, body.code);
      return { totp_mfa_factor: null };
    },
    { onRequest: deps.auth.requireSession, ...perMinutes(20, 5) },
  );
  registerRoute(
    app,
    createBackupCodeRoute,
    async ({ request }) => {
      const user = await requireUser(db, principalOf(request).userId);
      return { backup_code: await createBackupCode(auth, user) };
    },
    { onRequest: deps.auth.requireSession },
  );
  // Signed in (Bearer or key), or halfway through a sign-in with its MFA token: then it also signs in.
  registerRoute(
    app,
    removeMfaWithBackupCodeRoute,
    async ({ request, reply, params, body }) => {
      const mfaToken = body?.mfa_token;
      const user = mfaToken
        ? await userOfMfaToken(auth, mfaToken)
        : await requireUser(db, (await deps.auth.authenticateSession(request)).userId);
      await removeMfaWithBackupCode(auth, user, params.code);
      if (!mfaToken) return ok;
      return { status: 'ok' as const, session: withCookie(reply, await startSession(auth, user)) };
    },
    perMinutes(10, 15),
  );
}
