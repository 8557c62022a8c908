import { isBillingBlocked, isPaidTier } from '@parla/contracts';
import { useEffect, useEffectEvent, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useBillingOverview } from '../features/billing/api/get-billing-overview';
import { useSubscription } from '../features/billing/api/get-subscription';
import { CurrentPlanCard } from '../features/billing/components/current-plan-card';
import { DiscountCodeForm } from '../features/billing/components/discount-code-form';
import { PaymentProblemBanner } from '../features/billing/components/payment-problem-banner';
import { PlanPicker } from '../features/billing/components/plan-picker';
import { PromoCodeForm } from '../features/billing/components/promo-code-form';
import { PromoOffer } from '../features/billing/components/promo-offer';
import { useHostedRedirects } from '../features/billing/use-hosted-redirects';
import { afterPromoPath, usePromocodeEntry } from '../features/billing/use-promocode-entry';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/** `/app/subscription` (accounts §2, §4): the plan, its billing, the plan cards and the codes. */
export default function SubscriptionPage() {
  return (
    <RequireSignIn>
      <Subscription />
    </RequireSignIn>
  );
}

/** accounts §4: a `?promocode=` (or `?coupon=`) link runs the promo code entry once. */
function usePromocodeFromLink() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const entry = usePromocodeEntry();
  const code = search.get('promocode') ?? search.get('coupon');
  const handled = useRef<string | null>(null);
  const run = useEffectEvent((value: string) => {
    void entry.enter(value).then((outcome) => {
      // A valid code goes to the subscription page already; any other outcome leaves the link too.
      if (outcome.kind !== 'valid') void navigate(afterPromoPath, { replace: true });
    });
  });
  useEffect(() => {
    if (!code?.trim() || handled.current === code) return;
    handled.current = code;
    run(code);
  }, [code]);
}

function Subscription() {
  const subscription = useSubscription();
  const overview = useBillingOverview();
  const redirects = useHostedRedirects();
  usePromocodeFromLink();

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10 sm:px-6">
      <header className="flex flex-col gap-1">
        <p className="text-sm text-fg-muted">
          <Link className="hover:text-fg" to="/app/settings">
            Settings
          </Link>{' '}
          / Subscription
        </p>
        <h1 className="text-3xl font-semibold tracking-tight">Subscription</h1>
        <p className="text-fg-muted">Your plan, its credits and billing, and every plan you can move to.</p>
      </header>

      {subscription.isPending || overview.isPending ? (
        <div className="flex flex-col gap-6" aria-busy="true">
          <p className="sr-only">Loading your subscription…</p>
          <Skeleton className="h-56 w-full rounded-xl" />
          <Skeleton className="mx-auto h-9 w-64" />
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {['a', 'b', 'c'].map((key) => (
              <Skeleton key={key} className="h-96 w-full rounded-xl" />
            ))}
          </div>
        </div>
      ) : subscription.isError ? (
        <LoadError error={subscription.error} onRetry={() => void subscription.refetch()} />
      ) : (
        <>
          {isBillingBlocked(subscription.data.tier, subscription.data.status) && (
            <PaymentProblemBanner
              status={subscription.data.status}
              openAmountCents={subscription.data.open_invoices.reduce(
                (sum, i) => sum + i.amount_due_cents,
                0,
              )}
              currency={subscription.data.currency}
              canChangePaymentMethod={overview.data?.can_change_payment_method ?? false}
              onOpenPortal={redirects.openPortal}
              onUpdatePaymentMethod={redirects.updatePaymentMethod}
              busy={redirects.openPortalPending || redirects.updatePaymentMethodPending}
            />
          )}
          <CurrentPlanCard
            subscription={subscription.data}
            overview={overview.data}
            onManageBilling={redirects.openPortal}
            onUpdatePaymentMethod={redirects.updatePaymentMethod}
            busy={redirects.openPortalPending || redirects.updatePaymentMethodPending}
          />
          <section aria-labelledby="plans-title" className="flex flex-col gap-4">
            <h2 id="plans-title" className="text-xl font-semibold tracking-tight">
              Plans
            </h2>
            <PlanPicker subscription={subscription.data} overview={overview.data} signUpHref="/app/sign-up" />
          </section>
          <div className="grid gap-4 md:grid-cols-2">
            <PromoCodeForm currency={subscription.data.currency} />
            {isPaidTier(subscription.data.tier) && <DiscountCodeForm />}
          </div>
          <PromoOffer subscription={subscription.data} currency={subscription.data.currency} />
        </>
      )}
    </div>
  );
}
