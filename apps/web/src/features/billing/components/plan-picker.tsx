import {
  type BillingOverview,
  type Currency,
  type ExtendedSubscriptionResponse,
  recommendedPlan,
} from '@parla/contracts';
import { useState } from 'react';
import { LoadError } from '../../../ui/load-error';
import { Skeleton } from '../../../ui/skeleton';
import { usePlanOffers } from '../api/list-plan-offers';
import { currentPlanOf } from '../current-plan';
import type { PlanViewer } from '../plan-card-rules';
import { usePlanActions } from '../use-plan-actions';
import { usePricePeriod } from '../use-price-period';
import { CurrencyToggle, PeriodToggle } from './billing-toggles';
import { PlanCards } from './plan-cards';

export interface PlanPickerProps {
  /** Null for a visitor who is not signed in. */
  subscription: ExtendedSubscriptionResponse | null;
  overview: BillingOverview | undefined;
  /** Where a visitor's card button goes. */
  signUpHref: string;
}

/** The viewer of the plan-card rules: a visitor, or the workspace with its plan and button context. */
export function planViewerOf(
  subscription: ExtendedSubscriptionResponse | null,
  overview: BillingOverview | undefined,
): PlanViewer {
  if (!subscription) return { loggedIn: false };
  return {
    loggedIn: true,
    current: currentPlanOf(subscription, overview),
    context: {
      isolatedEnvironment: overview?.isolated_environment ?? false,
      status: subscription.status,
      currentTier: subscription.tier,
    },
  };
}

/**
 * The period and currency switches over the plan cards, with the cards' actions wired up. The currency
 * follows the workspace (accounts §4); only a workspace that has not paid yet, or a visitor, may switch it.
 */
export function PlanPicker({ subscription, overview, signUpHref }: PlanPickerProps) {
  const [chosenCurrency, setChosenCurrency] = useState<Currency | null>(null);
  const [period, setPeriod] = usePricePeriod(subscription?.billing_period);
  const currencySelectable = !subscription || subscription.tier === 'free' || subscription.tier === 'trial';
  const currency = (currencySelectable ? chosenCurrency : null) ?? subscription?.currency ?? 'usd';
  const offers = usePlanOffers(currency, subscription !== null);
  const actions = usePlanActions({ subscription: subscription ?? undefined, overview, currency });

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-center gap-3">
        <PeriodToggle value={period} onChange={setPeriod} />
        {currencySelectable && <CurrencyToggle value={currency} onChange={setChosenCurrency} />}
      </div>
      {offers.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true">
          <p className="sr-only">Loading plans…</p>
          {['a', 'b', 'c', 'd', 'e', 'f'].map((key) => (
            <Skeleton key={key} className="h-96 w-full rounded-xl" />
          ))}
        </div>
      ) : offers.isError ? (
        <LoadError error={offers.error} onRetry={() => void offers.refetch()} />
      ) : (
        <PlanCards
          offers={offers.data}
          period={period}
          viewer={planViewerOf(subscription, overview)}
          recommended={recommendedPlan(subscription?.tier ?? 'free')}
          signUpHref={signUpHref}
          busyPlan={actions.busyPlan}
          onAction={(offer, action) => actions.run(offer, action, period)}
        />
      )}
      {actions.dialog}
    </div>
  );
}
