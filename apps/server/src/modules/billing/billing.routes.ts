import {
  applyDiscountRoute,
  authenticateSessionRoute,
  cancelDowngradeRoute,
  cancelSubscriptionRoute,
  changeSubscriptionRoute,
  completeConnectSessionRoute,
  createCheckoutSessionRoute,
  createConnectAccountManagementLinkRoute,
  createConnectAccountRoute,
  createPortalCardSessionRoute,
  createPortalSessionRoute,
  createUpdatePaymentMethodsSessionRoute,
  getBillingOverviewRoute,
  getHostedSessionRoute,
  isEligibleForFirstMonthOffer,
  listPlanOffersRoute,
  payInvoiceRoute,
  planOffers,
  previewSubscriptionChangeRoute,
  renewSubscriptionRoute,
  submitCardRoute,
  validatePromocodeRoute,
  verifyCardRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { adminRightsRequired } from '../workspaces';
import type { BillingDeps } from './billing.context';
import { loadBillingState } from './billing.store';
import { getBillingOverview } from './billing-overview.service';
import {
  authenticateSession,
  completeConnectSession,
  createCardSessionFromPortal,
  createCheckoutSession,
  createConnectSession,
  createPaymentMethodSession,
  createPortalSession,
  getHostedSession,
  payInvoiceFromPortal,
  submitCard,
} from './checkout.service';
import {
  cancelDowngrade,
  cancelSubscription,
  changeSubscription,
  previewSubscriptionChange,
  renewSubscription,
  verifyCard,
} from './plan-changes.service';
import { applyDiscount, validatePromocode } from './promo-codes.service';

export function billingDepsOf(deps: AppDeps): BillingDeps {
  return {
    db: deps.database.db,
    events: deps.events,
    clock: deps.clock,
    provider: deps.providers.billing,
  };
}

/** The billing calls of accounts §7, the billing overview, and the hosted pages of the test-mode provider. */
export async function billingRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const billing = billingDepsOf(deps);
  // Billing changes come from a signed-in person, never from an API key.
  // …and from one with the workspace's admin rights: a plain member may read the plan, not change it.
  const session = { onRequest: [deps.auth.requireSession, adminRightsRequired] };
  // The hosted pages carry their secret in the URL; guessing is slowed down like sign-in.
  const hosted = { config: { rateLimit: { max: 60, timeWindow: 60_000 } } };
  /**
   * The plans need no sign-in; a signed-in caller sees the first-month offers only while eligible (never
   * on a paid tier, accounts §9), and an anonymous visitor sees them as offered to newcomers.
   */
  const firstMonthOfferEligibleFor = async (request: FastifyRequest): Promise<boolean> => {
    if (!request.headers.authorization && !request.headers['xi-api-key']) return true;
    const principal = await deps.auth.authenticate(request).catch(() => undefined);
    if (!principal) return true;
    const { sub } = await loadBillingState(billing.db, principal.workspaceId);
    return isEligibleForFirstMonthOffer(sub.previouslySubscribedTiers);
  };
  const caller = (request: Parameters<typeof principalOf>[0]) => {
    const principal = principalOf(request);
    return { userId: principal.userId, workspaceId: principal.workspaceId };
  };

  registerRoute(app, listPlanOffersRoute, async ({ request, query }) => ({
    plans: planOffers(query.currency, {
      firstMonthOfferEligible: await firstMonthOfferEligibleFor(request),
    }),
  }));
  registerRoute(
    app,
    getBillingOverviewRoute,
    async ({ request }) => getBillingOverview(billing, principalOf(request).workspaceId),
    { onRequest: [deps.auth.requireAuth, adminRightsRequired] },
  );
  registerRoute(
    app,
    createCheckoutSessionRoute,
    async ({ request, body }) => createCheckoutSession(billing, caller(request), body),
    session,
  );
  registerRoute(
    app,
    createUpdatePaymentMethodsSessionRoute,
    async ({ request }) => createPaymentMethodSession(billing, caller(request)),
    session,
  );
  registerRoute(
    app,
    createPortalSessionRoute,
    async ({ request }) => createPortalSession(billing, caller(request)),
    session,
  );
  registerRoute(
    app,
    changeSubscriptionRoute,
    async ({ request, body }) => changeSubscription(billing, caller(request), body),
    session,
  );
  registerRoute(
    app,
    previewSubscriptionChangeRoute,
    async ({ request, body }) => previewSubscriptionChange(billing, caller(request), body),
    session,
  );
  registerRoute(
    app,
    cancelDowngradeRoute,
    async ({ request, body }) => cancelDowngrade(billing, caller(request), body?.idempotency_key),
    session,
  );
  registerRoute(
    app,
    renewSubscriptionRoute,
    async ({ request, body }) => renewSubscription(billing, caller(request), body?.idempotency_key),
    session,
  );
  registerRoute(
    app,
    cancelSubscriptionRoute,
    async ({ request, body }) => cancelSubscription(billing, caller(request), body?.idempotency_key),
    session,
  );
  registerRoute(
    app,
    applyDiscountRoute,
    async ({ request, body }) =>
      applyDiscount(billing, caller(request), body.discount_code, body.idempotency_key),
    session,
  );
  registerRoute(app, verifyCardRoute, async ({ request }) => verifyCard(billing, caller(request)), session);
  registerRoute(
    app,
    validatePromocodeRoute,
    async ({ request, body }) => validatePromocode(billing, caller(request), body.promocode),
    {
      ...session,
      config: { rateLimit: { max: 30, timeWindow: 60_000 } },
    },
  );
  registerRoute(
    app,
    createConnectAccountRoute,
    async ({ request, body }) =>
      createConnectSession(billing, caller(request), body.relative_redirect_path, 'account'),
    session,
  );
  registerRoute(
    app,
    createConnectAccountManagementLinkRoute,
    async ({ request, body }) =>
      createConnectSession(billing, caller(request), body.relative_redirect_path, 'management'),
    session,
  );

  registerRoute(
    app,
    getHostedSessionRoute,
    async ({ params }) => getHostedSession(billing, params.session_id),
    hosted,
  );
  registerRoute(
    app,
    submitCardRoute,
    async ({ params, body }) => submitCard(billing, params.session_id, body),
    hosted,
  );
  registerRoute(
    app,
    authenticateSessionRoute,
    async ({ params, body }) => authenticateSession(billing, params.session_id, body.approve),
    hosted,
  );
  registerRoute(
    app,
    payInvoiceRoute,
    async ({ params }) => {
      await payInvoiceFromPortal(billing, params.session_id, params.invoice_id);
      return { status: 'ok' as const };
    },
    hosted,
  );
  registerRoute(
    app,
    createPortalCardSessionRoute,
    async ({ params }) => createCardSessionFromPortal(billing, params.session_id),
    hosted,
  );
  registerRoute(
    app,
    completeConnectSessionRoute,
    async ({ params }) => completeConnectSession(billing, params.session_id),
    hosted,
  );
}
