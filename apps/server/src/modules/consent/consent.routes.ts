import {
  acceptBipaTermsRoute,
  agreeToTermsRoute,
  GPC_HEADER,
  getConsentRoute,
  getTrainingOptOutRoute,
  updateConsentRoute,
  updateWorkspaceRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import {
  acceptBipaTerms,
  agreeToTerms,
  applyGlobalPrivacyControl,
  assertBipaTermsAccepted,
  type ConsentRequest,
  consentDepsOf,
  getConsentState,
  getWorkspaceTrainingOptOut,
  updateConsent,
  updateWorkspaceTrainingOptOut,
} from './consent.service';

const ok = { status: 'ok' as const };

/** Whether the browser sends Global Privacy Control (`Sec-GPC: 1`). */
function sendsGpc(request: FastifyRequest): boolean {
  return request.headers[GPC_HEADER] === '1';
}

/**
 * The client's address is `request.ip`: the socket's peer, or the `X-Forwarded-For` client only when
 * TRUST_PROXY names the proxy, so a caller cannot choose their region with a header.
 */
function consentRequestOf(request: FastifyRequest): ConsentRequest {
  return { ip: request.ip, gpc: sendsGpc(request) };
}

/**
 * Consent and privacy (issue 8 item 4; accounts §4, §6): analytics consent with regional defaults, the CCPA
 * opt-out, the biometric terms, agreements to named terms and the workspace's data-training opt-out.
 */
export async function consentRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const consent = consentDepsOf(deps);
  const db = deps.database.db;
  const guarded = { onRequest: deps.auth.requireAuth };
  // Consent and acceptance of terms are a person's own act: a signed-in session, never an API key.
  const session = {
    onRequest: deps.auth.requireSession,
    config: { rateLimit: { max: 60, timeWindow: 15 * 60_000 } },
  };

  registerRoute(
    app,
    getConsentRoute,
    async ({ request }) => getConsentState(consent, principalOf(request).userId, consentRequestOf(request)),
    guarded,
  );
  registerRoute(
    app,
    updateConsentRoute,
    async ({ request, body }) =>
      updateConsent(consent, principalOf(request).userId, consentRequestOf(request), body),
    session,
  );
  registerRoute(
    app,
    acceptBipaTermsRoute,
    async ({ request }) => {
      await acceptBipaTerms(consent, principalOf(request).userId);
      return ok;
    },
    session,
  );
  registerRoute(
    app,
    agreeToTermsRoute,
    async ({ request, body }) => ({
      status: 'ok' as const,
      terms_agreed_to: await agreeToTerms(consent, principalOf(request).userId, body.terms),
    }),
    session,
  );
  registerRoute(
    app,
    getTrainingOptOutRoute,
    async ({ request }) => getWorkspaceTrainingOptOut(db, principalOf(request)),
    guarded,
  );
  registerRoute(
    app,
    updateWorkspaceRoute,
    async ({ request, body }) =>
      updateWorkspaceTrainingOptOut(consent, principalOf(request), body.training_opt_out),
    session,
  );
}

/**
 * The route options of a voice (biometric) call: the auth guard, then the accounts §4 biometric-terms check
 * (a user in the Illinois region gets 403 `bipa_terms_required` until they accept the updated terms).
 */
export function biometricGuard(deps: AppDeps): Pick<RouteOptions, 'onRequest'> {
  const consent = consentDepsOf(deps);
  const requireBipaTerms = async (request: FastifyRequest) => {
    await assertBipaTermsAccepted(consent, principalOf(request).userId, request.ip);
  };
  return { onRequest: [deps.auth.requireAuth, requireBipaTerms] };
}

/**
 * accounts §4 CCPA opt-out: `Sec-GPC: 1` on any signed-in request records users.ccpa_opt_out for a user
 * located in one of the listed states. Added before the route plugins so it covers all of them; runs once the
 * route's guard has named the caller, and never fails the response it rides on.
 */
export function registerGlobalPrivacyControl(app: FastifyInstance, deps: AppDeps): void {
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.principal && sendsGpc(request)) {
      await applyGlobalPrivacyControl(deps.database.db, request.principal.userId).catch((error: unknown) => {
        request.log.warn({ err: error }, 'the Global Privacy Control opt-out was not recorded');
      });
    }
    return payload;
  });
}
