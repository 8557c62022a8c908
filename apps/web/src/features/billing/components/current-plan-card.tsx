import {
  type BillingOverview,
  type ExtendedSubscriptionResponse,
  formatPrice,
  isBillingBlocked,
  tierDisplayNames,
} from '@parla/contracts';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { Badge, type BadgeTone } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Card, CardContent, CardHeader } from '../../../ui/card';
import { pendingChangeFrom } from '../current-plan';
import {
  creditsSummary,
  discountSummary,
  pendingChangeText,
  periodLabel,
  statusLabels,
} from '../subscription-summary';
import { CreditsMeter } from './credits-meter';

export interface CurrentPlanCardProps {
  subscription: ExtendedSubscriptionResponse;
  overview: BillingOverview | undefined;
  onManageBilling: () => void;
  onUpdatePaymentMethod: () => void;
  busy: boolean;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs font-medium text-fg-muted">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

/**
 * The summary at the top of /app/subscription (accounts §3 Subscription, usage and next invoice): the
 * plan and its status, the credits of this period, the next reset and invoice, a pending change, the
 * discount and card on file, and the ways to the provider's pages.
 */
export function CurrentPlanCard({
  subscription,
  overview,
  onManageBilling,
  onUpdatePaymentMethod,
  busy,
}: CurrentPlanCardProps) {
  const blocked = isBillingBlocked(subscription.tier, subscription.status);
  const tone: BadgeTone = blocked ? 'danger' : subscription.status === 'active' ? 'success' : 'neutral';
  const credits = creditsSummary(subscription.character_count, subscription.character_limit);
  const pending = pendingChangeText(pendingChangeFrom(subscription, overview));
  const period = periodLabel(subscription.billing_period);
  const invoice = subscription.next_invoice;
  const discount = overview ? discountSummary(overview, subscription.currency, Boolean(invoice)) : null;
  const card = overview?.payment_method;
  const canManage = overview ? overview.provider !== 'none' && !overview.isolated_environment : false;

  return (
    <Card aria-labelledby="current-plan-eyebrow current-plan-title">
      <CardHeader className="flex-wrap">
        <div className="flex flex-col gap-1">
          <p id="current-plan-eyebrow" className="text-xs font-medium tracking-wide text-fg-muted uppercase">
            Current plan
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <h2 id="current-plan-title" className="text-2xl font-semibold tracking-tight">
              {tierDisplayNames[subscription.tier]}
            </h2>
            {/* A free plan's status is its name again ("Free"): said once (issue 18). */}
            {statusLabels[subscription.status] !== tierDisplayNames[subscription.tier] && (
              <Badge tone={tone} dot>
                {statusLabels[subscription.status]}
              </Badge>
            )}
            {period && <Badge>{period}</Badge>}
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          {overview?.can_change_payment_method && (
            <Button
              variant="secondary"
              onClick={busy ? undefined : onUpdatePaymentMethod}
              aria-disabled={busy || undefined}
            >
              Update payment method
            </Button>
          )}
          {canManage && (
            <Button onClick={busy ? undefined : onManageBilling} aria-disabled={busy || undefined}>
              Manage billing
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
            <p>
              <span className="font-semibold tabular-nums">{credits.used}</span>
              <span className="text-fg-muted"> of {credits.limit} credits used</span>
            </p>
            <p className="text-fg-muted">
              <span className="font-medium text-fg tabular-nums">{credits.remaining}</span> remaining
            </p>
          </div>
          {credits.percentUsed !== null && <CreditsMeter percentUsed={credits.percentUsed} />}
        </div>

        {pending && (
          <p className="rounded-lg border border-warning/30 bg-warning-soft px-3 py-2 text-sm text-fg">
            {pending}
          </p>
        )}

        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Fact label="Credits reset">
            {subscription.next_character_count_reset_unix
              ? formatDate(fromUnixSeconds(subscription.next_character_count_reset_unix))
              : '—'}
          </Fact>
          <Fact label="Next invoice">
            {invoice ? (
              <>
                <span className="font-medium tabular-nums">
                  {formatPrice(invoice.amount_due_cents / 100, subscription.currency)}
                </span>
                <span className="text-fg-muted">
                  {' '}
                  on {formatDate(fromUnixSeconds(invoice.next_payment_attempt_unix))}
                </span>
              </>
            ) : (
              'None scheduled'
            )}
          </Fact>
          <Fact label="Payment method">{card ? `${card.brand} •••• ${card.last4}` : 'None on file'}</Fact>
          <Fact label="Discount">
            {discount ? (
              <>
                {discount.applied && <span className="block">{discount.applied}</span>}
                {discount.next && (
                  <span className={clsx('block', discount.applied && 'text-fg-muted')}>{discount.next}</span>
                )}
              </>
            ) : (
              'None'
            )}
          </Fact>
        </dl>
        <p className="text-sm text-fg-muted">
          See how your credits were spent on the{' '}
          <Link className="font-medium text-accent hover:underline" to="/app/developers/usage">
            usage page
          </Link>
          .
        </p>
      </CardContent>
    </Card>
  );
}
