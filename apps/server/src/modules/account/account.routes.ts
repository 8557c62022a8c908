import {
  deleteUserRoute,
  dismissModerationWarningRoute,
  editUserMetadataRoute,
  editUserRoute,
  generateNameRoute,
  getRandomUserIdRoute,
  getReferralLinkRoute,
  getSubscriptionRoute,
  getUserRoute,
  postRegistrationUserSetupRoute,
  prepareInternalVerificationRoute,
  preSignUpRoute,
  recordDeviceFingerprintRoute,
  sendEmailChangeVerificationRoute,
  sensitiveActionHeader,
  updateEmailRoute,
  verifySensitiveActionCodeRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { accountActionDepsOf } from '../auth';
import { getUserByEmail, requireUser } from '../users';
import {
  deleteUser,
  dismissModerationWarning,
  editUser,
  editUserMetadata,
  generateName,
  getReferralLink,
  getSubscription,
  getUserDocument,
  recordDeviceFingerprint,
  recordSignupSource,
  stableRandomOf,
} from './account.service';
import {
  prepareInternalVerification,
  sendEmailChangeVerification,
  updateEmail,
  verifySensitiveActionCode,
} from './sensitive-actions.service';

const ok = { status: 'ok' as const };

function sensitiveCodeOf(request: FastifyRequest): string | undefined {
  const value = request.headers[sensitiveActionHeader];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The user calls of accounts §7 under /v1/user. */
export async function accountRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const db = deps.database.db;
  const actions = accountActionDepsOf(deps);
  const guarded = { onRequest: deps.auth.requireAuth };
  // The account's email, deletion and metadata change only from a signed-in session, never with a key.
  const session = { onRequest: deps.auth.requireSession };
  const limited = (max: number, minutes: number) => ({
    ...session,
    config: { rateLimit: { max, timeWindow: minutes * 60_000 } },
  });

  registerRoute(
    app,
    getUserRoute,
    async ({ request }) =>
      getUserDocument(db, principalOf(request), {
        feedbackEnabled: deps.config.feedbackEnabled,
        ttsVideoGeneration: deps.config.ttsVideoGeneration,
      }),
    guarded,
  );
  registerRoute(
    app,
    getSubscriptionRoute,
    async ({ request }) => getSubscription(db, principalOf(request).workspaceId),
    guarded,
  );
  registerRoute(
    app,
    editUserMetadataRoute,
    async ({ request, body }) => {
      await editUserMetadata(actions, principalOf(request), body);
      return ok;
    },
    limited(30, 15),
  );
  registerRoute(
    app,
    editUserRoute,
    async ({ request, body }) => {
      await editUser(db, principalOf(request).userId, body);
      return ok;
    },
    session,
  );
  registerRoute(
    app,
    dismissModerationWarningRoute,
    async ({ request }) => {
      await dismissModerationWarning(db, principalOf(request).userId);
      return ok;
    },
    guarded,
  );
  registerRoute(
    app,
    preSignUpRoute,
    async ({ body }) => ({ status: 'ok' as const, email_available: !(await getUserByEmail(db, body.email)) }),
    { config: { rateLimit: { max: 30, timeWindow: 15 * 60_000 } } },
  );
  registerRoute(
    app,
    postRegistrationUserSetupRoute,
    async ({ request, body }) => {
      await recordSignupSource(db, principalOf(request).userId, body, deps.clock.now());
      return ok;
    },
    session,
  );
  registerRoute(
    app,
    getRandomUserIdRoute,
    async ({ request }) => ({ rand: stableRandomOf(principalOf(request).userId) }),
    guarded,
  );
  registerRoute(app, generateNameRoute, async () => ({ name: generateName() }), guarded);
  registerRoute(
    app,
    recordDeviceFingerprintRoute,
    async ({ request, body }) => ({
      status: 'ok' as const,
      new_device: await recordDeviceFingerprint(db, principalOf(request).userId, body.fingerprint),
    }),
    guarded,
  );
  registerRoute(
    app,
    getReferralLinkRoute,
    async ({ request }) => ({
      referral_link: await getReferralLink(
        { db, events: deps.events },
        deps.config.publicUrl,
        principalOf(request).userId,
      ),
    }),
    guarded,
  );
  registerRoute(
    app,
    deleteUserRoute,
    async ({ request }) => {
      await deleteUser(
        { ...actions, events: deps.events },
        principalOf(request).userId,
        sensitiveCodeOf(request),
      );
      return ok;
    },
    session,
  );
  registerRoute(
    app,
    prepareInternalVerificationRoute,
    async ({ request, body }) => {
      const user = await requireUser(db, principalOf(request).userId);
      await prepareInternalVerification(actions, user, body.email);
      return ok;
    },
    limited(5, 15),
  );
  registerRoute(
    app,
    verifySensitiveActionCodeRoute,
    async ({ request, body }) => {
      const user = await requireUser(db, principalOf(request).userId);
      await verifySensitiveActionCode(actions, user, body.verification_code);
      return ok;
    },
    limited(20, 15),
  );
  registerRoute(
    app,
    sendEmailChangeVerificationRoute,
    async ({ request, body }) => {
      const user = await requireUser(db, principalOf(request).userId);
      await sendEmailChangeVerification(actions, user, {
        newEmail: body.new_email,
        sensitiveActionCode: sensitiveCodeOf(request),
      });
      return ok;
    },
    limited(5, 15),
  );
  // Reverting needs no sign-in (accounts §2 isReverting); a change does.
  registerRoute(
    app,
    updateEmailRoute,
    async ({ request, query }) => {
      const userId = query.is_reverting ? undefined : (await deps.auth.authenticateSession(request)).userId;
      const email = await updateEmail(actions, {
        code: query.verification_code,
        isReverting: query.is_reverting,
        userId,
      });
      return { status: 'ok' as const, email };
    },
    { config: { rateLimit: { max: 20, timeWindow: 15 * 60_000 } } },
  );
}
