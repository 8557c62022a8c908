import { isPaidTier, tierDisplayNames } from '@parla/contracts';
import { clsx } from 'clsx';
import { Link } from 'react-router';
import { useAuth } from '../../../lib/auth/auth-provider';
import { Button } from '../../../ui/button';
import { CoinsIcon } from '../../../ui/icons';
import { Skeleton } from '../../../ui/skeleton';
import { Tooltip } from '../../../ui/tooltip';
import { useSubscription } from '../api/get-subscription';
import { creditResetText, creditsSummary } from '../subscription-summary';
import { CreditsMeter } from './credits-meter';

export interface CreditMeterProps {
  /** The collapsed sidebar's form: an icon whose tooltip and name carry the figures. */
  collapsed?: boolean;
  className?: string;
}

/**
 * The credits of this period at a glance (accounts §3, §9 "the quota label shows used or remaining
 * credits"): used and remaining of the plan's allowance, a bar, and the day the count resets, from
 * `GET /v1/user/subscription`. It follows the subscription query, which a generation refreshes.
 */
export function CreditMeter({ collapsed = false, className }: CreditMeterProps) {
  const { status } = useAuth();
  const subscription = useSubscription({ enabled: status === 'signedIn' });

  if (status !== 'signedIn') return null;
  if (subscription.isPending) {
    return (
      <div aria-busy="true" className={clsx('flex flex-col gap-2', className)}>
        <span className="sr-only">Loading your credits…</span>
        <Skeleton className="h-3.5 w-24" />
        <Skeleton className="h-2 w-full" />
      </div>
    );
  }
  if (subscription.isError) {
    return (
      <div className={clsx('flex flex-col items-start gap-1 text-xs text-fg-muted', className)}>
        {!collapsed && <p>Your credits could not be loaded.</p>}
        <Button
          variant="ghost"
          size="sm"
          className="-ml-2"
          aria-label="Load your credits again"
          onClick={() => void subscription.refetch()}
        >
          {collapsed ? <CoinsIcon /> : 'Try again'}
        </Button>
      </div>
    );
  }

  const plan = subscription.data;
  const credits = creditsSummary(plan.character_count, plan.character_limit);
  const unlimited = credits.percentUsed === null;
  const reset = creditResetText(plan.next_character_count_reset_unix);
  const planName = tierDisplayNames[plan.tier];
  const summary = unlimited
    ? `Unlimited credits, ${credits.used} used`
    : `${credits.used} of ${credits.limit} credits used, ${credits.remaining} left`;

  if (collapsed) {
    return (
      <Tooltip
        side="right"
        content={
          <>
            {summary}
            {reset && <span className="block">{reset}</span>}
          </>
        }
      >
        <Link
          to="/app/subscription"
          className={clsx(
            'relative flex size-10 items-center justify-center rounded-lg text-lg text-fg-muted hover:bg-subtle hover:text-fg',
            className,
          )}
        >
          <CoinsIcon />
          <span className="sr-only">
            Credits: {summary}
            {reset ? `. ${reset}` : ''}. {planName} plan
          </span>
          {!unlimited && (
            <span
              aria-hidden="true"
              className="absolute inset-x-2 bottom-1 h-1 overflow-hidden rounded-full bg-subtle"
            >
              <span
                className={clsx('block h-full', (credits.percentUsed ?? 0) >= 90 ? 'bg-danger' : 'bg-accent')}
                style={{ width: `${credits.percentUsed}%` }}
              />
            </span>
          )}
        </Link>
      </Tooltip>
    );
  }

  return (
    <section aria-label="Credits" className={clsx('flex min-w-0 flex-col gap-2 text-xs', className)}>
      <div className="flex min-w-0 items-baseline justify-between gap-2">
        <p className="font-medium text-fg">Credits</p>
        <Link
          to="/app/subscription"
          className="truncate rounded-sm text-fg-muted hover:text-fg hover:underline"
        >
          {isPaidTier(plan.tier) ? `${planName} plan` : `${planName} · Upgrade`}
        </Link>
      </div>
      {unlimited ? (
        <p className="text-fg-muted">
          <span className="font-medium text-fg">Unlimited</span> · {credits.used} used
        </p>
      ) : (
        <>
          <CreditsMeter percentUsed={credits.percentUsed ?? 0} />
          <p className="flex min-w-0 flex-wrap justify-between gap-x-2 text-fg-muted tabular-nums">
            <span>
              <span className="font-medium text-fg">{credits.used}</span> used
            </span>
            <span>
              <span className="font-medium text-fg">{credits.remaining}</span> left
            </span>
          </p>
        </>
      )}
      {reset && <p className="text-fg-muted">{reset}</p>}
    </section>
  );
}
