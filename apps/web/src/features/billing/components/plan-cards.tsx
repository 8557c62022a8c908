import type { PaidPlanId, PlanAction, PlanOffer, PricePeriod } from '@parla/contracts';
import { clsx } from 'clsx';
import { useId } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { CheckIcon } from '../../../ui/icons';
import { offerPrice, type PlanCardButton, type PlanViewer, planCardState } from '../plan-card-rules';

/** Where "Contact sales" goes (accounts §2 marketing path /enterprise). */
export const contactSalesHref = '/enterprise';

export interface PlanCardsProps {
  offers: readonly PlanOffer[];
  period: PricePeriod;
  viewer: PlanViewer;
  /** accounts §4 "Recommended offer", highlighted. */
  recommended: PaidPlanId | null;
  /** Where a logged-out visitor's button goes. */
  signUpHref: string;
  /** The plan whose action is running; its button waits. */
  busyPlan?: string | null;
  onAction?: (offer: PlanOffer, action: PlanAction) => void;
}

/**
 * The plan cards of /pricing and /app/subscription (accounts §3 "Plan offer", §4): price for the period,
 * "Most popular", the recommended offer, the current plan, the badges and the one action of each card.
 * Enterprise spans the row below.
 */
export function PlanCards({
  offers,
  period,
  viewer,
  recommended,
  signUpHref,
  busyPlan,
  onAction,
}: PlanCardsProps) {
  const plans = offers.filter((offer) => !offer.enterprise);
  const enterprise = offers.filter((offer) => offer.enterprise);
  return (
    <div className="flex flex-col gap-4">
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {plans.map((offer) => (
          <li key={offer.plan_id} className="flex">
            <PlanCard
              offer={offer}
              period={period}
              viewer={viewer}
              recommended={recommended === offer.plan_id}
              signUpHref={signUpHref}
              busy={busyPlan === offer.plan_id}
              onAction={onAction}
            />
          </li>
        ))}
      </ul>
      {enterprise.map((offer) => (
        <EnterpriseCard key={offer.plan_id} offer={offer} viewer={viewer} />
      ))}
    </div>
  );
}

interface PlanCardProps {
  offer: PlanOffer;
  period: PricePeriod;
  viewer: PlanViewer;
  recommended: boolean;
  signUpHref: string;
  busy: boolean;
  onAction: ((offer: PlanOffer, action: PlanAction) => void) | undefined;
}

function PlanCard({ offer, period, viewer, recommended, signUpHref, busy, onAction }: PlanCardProps) {
  const titleId = useId();
  const state = planCardState(offer, period, viewer);
  const price = offerPrice(offer, period);
  const highlighted = recommended && !state.isCurrent;
  return (
    <Card
      aria-labelledby={titleId}
      data-plan={offer.plan_id}
      className={clsx(
        'flex w-full flex-col gap-5 p-5',
        highlighted && 'border-accent ring-1 ring-accent',
        state.isCurrent && 'border-fg/40',
      )}
    >
      <div className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={titleId} className="text-lg font-semibold tracking-tight">
            {offer.name}
          </h3>
          {offer.most_popular && <Badge tone="accent">Most popular</Badge>}
          {recommended && !offer.most_popular && <Badge tone="accent">Recommended</Badge>}
          {state.isCurrent && (
            <Badge tone="success" dot>
              Current plan
            </Badge>
          )}
          {state.badge && (
            <Badge tone="warning" dot>
              {state.badge}
            </Badge>
          )}
        </div>
        {/* Two lines held for every description, so the prices and buttons of a row line up. */}
        <p className="min-h-10 text-sm text-fg-muted">{offer.description}</p>
      </div>

      <div className="flex flex-col gap-1">
        <p className="flex flex-wrap items-baseline gap-x-2">
          <span className="text-3xl font-semibold tracking-tight tabular-nums">{price.amount}</span>
          {price.original && (
            <span className="text-base text-fg-muted tabular-nums line-through">
              <span className="sr-only">instead of </span>
              {price.original}
            </span>
          )}
          {price.unit && <span className="text-sm text-fg-muted">{price.unit}</span>}
        </p>
        <p className="min-h-5 text-xs text-fg-muted">{price.note}</p>
        <p className="min-h-6">
          {price.discountMessage && <Badge tone="success">{price.discountMessage}</Badge>}
        </p>
      </div>

      <CardButton
        button={state.button}
        describedBy={titleId}
        primary={highlighted}
        busy={busy}
        signUpHref={signUpHref}
        onClick={(action) => onAction?.(offer, action)}
      />

      <ul className="flex flex-col gap-2 border-t border-line pt-4 text-sm">
        {offer.benefits.map((benefit) => (
          <li key={benefit} className="flex gap-2">
            <CheckIcon className="mt-0.5 shrink-0 text-success" aria-hidden="true" />
            <span>{benefit}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function CardButton({
  button,
  describedBy,
  primary,
  busy,
  signUpHref,
  onClick,
}: {
  button: PlanCardButton;
  describedBy: string;
  primary: boolean;
  busy: boolean;
  signUpHref: string;
  onClick: (action: PlanAction) => void;
}) {
  const variant = primary ? 'primary' : 'secondary';
  if (button.kind === 'signUp') {
    return (
      <Button variant={variant} asChild aria-describedby={describedBy}>
        <Link to={signUpHref}>{button.label}</Link>
      </Button>
    );
  }
  if (button.kind === 'contactSales') {
    return (
      <Button variant={variant} asChild aria-describedby={describedBy}>
        <a href={contactSalesHref}>{button.label}</a>
      </Button>
    );
  }
  const { action } = button;
  return (
    <Button
      variant={action === 'cancelSubscription' ? 'secondary' : variant}
      disabled={button.disabled}
      aria-disabled={busy || undefined}
      aria-describedby={describedBy}
      onClick={busy ? undefined : () => onClick(action)}
    >
      {busy ? 'Working…' : button.label}
    </Button>
  );
}

function EnterpriseCard({ offer, viewer }: { offer: PlanOffer; viewer: PlanViewer }) {
  const titleId = useId();
  const state = planCardState(offer, 'monthly', viewer);
  return (
    <Card
      aria-labelledby={titleId}
      data-plan={offer.plan_id}
      className="flex flex-col gap-4 p-5 md:flex-row md:items-center md:justify-between"
    >
      <div className="flex flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={titleId} className="text-lg font-semibold tracking-tight">
            {offer.name}
          </h3>
          {state.isCurrent && (
            <Badge tone="success" dot>
              Current plan
            </Badge>
          )}
        </div>
        <p className="max-w-2xl text-sm text-fg-muted">{offer.description}</p>
        <p className="text-sm text-fg-muted">Custom pricing · {offer.benefits.slice(0, 3).join(' · ')}</p>
      </div>
      <CardButton
        button={state.button}
        describedBy={titleId}
        primary={false}
        busy={false}
        signUpHref=""
        onClick={() => undefined}
      />
    </Card>
  );
}
