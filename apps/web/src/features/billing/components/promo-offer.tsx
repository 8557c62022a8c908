import {
  type Currency,
  type ExtendedSubscriptionResponse,
  formatPrice,
  PLAN_NUMBERS,
  promoPlanForAmount,
  tierDisplayNames,
} from '@parla/contracts';
import { leaveAppTo } from '../../../lib/leave-app';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { useChangeSubscription } from '../api/change-subscription';
import { useCreateCheckoutSession } from '../api/create-checkout-session';
import { billingMessages } from '../billing-messages';
import {
  clearStoredPromo,
  promoDiscountText,
  promoDurationText,
  promoRefusalMessage,
  setPromoDismissed,
  useStoredPromo,
} from '../promo';
import { serverReason } from '../use-plan-actions';

export interface PromoOfferProps {
  subscription: ExtendedSubscriptionResponse;
  currency: Currency;
}

/**
 * accounts §4 "Promo dialog": while a promo is stored and not dismissed, offer the plan its amount pays
 * for, monthly. Dismiss leaves a floating banner (from the md breakpoint) that opens it again; "No
 * thanks" forgets the promo; Accept checks out (free or trial) or changes the plan with the code.
 */
export function PromoOffer({ subscription, currency }: PromoOfferProps) {
  const { promo, dismissed } = useStoredPromo();
  const { toast } = useToast();
  const checkout = useCreateCheckoutSession();
  const change = useChangeSubscription();
  const plan = promoPlanForAmount(promo?.amount_off);
  const onPlanAlready =
    plan !== null && subscription.tier === plan && subscription.billing_period === 'monthly_period';
  if (!promo || !plan || onPlanAlready) return null;

  const name = tierDisplayNames[plan];
  const monthly = PLAN_NUMBERS[plan].monthlyCents;
  const discount = promoDiscountText(promo, currency);
  const startsCheckout = subscription.tier === 'free' || subscription.tier === 'trial';
  const busy = checkout.isPending || change.isPending || checkout.isSuccess;

  const accept = () => {
    if (busy) return;
    if (startsCheckout) {
      checkout.mutate(
        { subscription_type: plan, billing_period: 'monthly_period', currency, promocode: promo.promocode },
        {
          onSuccess: ({ url }) => leaveAppTo(url),
          onError: (error) => {
            const refusal = promoRefusalMessage(promo.promocode, error);
            if (refusal) clearStoredPromo();
            toast({
              title: refusal ?? billingMessages.checkoutFailed,
              ...(refusal ? {} : { description: serverReason(error) }),
              variant: 'error',
            });
          },
        },
      );
      return;
    }
    change.mutate(
      {
        subscription_type: plan,
        billing_period: 'monthly_period',
        // One key per acceptance: a retry of the same click is the same change, a later promo a new one.
        idempotency_key: crypto.randomUUID(),
        promocode: promo.promocode,
      },
      {
        onSuccess: () => {
          clearStoredPromo();
          toast({ title: `You are now on ${name} with your offer.`, variant: 'success' });
        },
        // accounts §4: a failure here is silently ignored; the offer stays behind the banner.
        onError: () => setPromoDismissed(promo, true),
      },
    );
  };

  return (
    <>
      <Dialog
        open={!dismissed}
        onOpenChange={(open) => !open && !busy && setPromoDismissed(promo, true)}
        title="A special offer for you"
        description={
          <>
            Get {discount ?? 'an offer on'} {name} {promoDurationText(promo)} with the code{' '}
            <span className="font-mono font-medium text-fg">{promo.promocode}</span>.
          </>
        }
        footer={
          <>
            {/* Dismiss first: the dialog opens with the focus on the button that loses nothing. */}
            <Button
              variant="secondary"
              onClick={busy ? undefined : () => setPromoDismissed(promo, true)}
              aria-disabled={busy || undefined}
            >
              Dismiss
            </Button>
            <Button
              variant="ghost"
              onClick={busy ? undefined : clearStoredPromo}
              aria-disabled={busy || undefined}
            >
              No thanks
            </Button>
            <Button onClick={accept} aria-disabled={busy || undefined}>
              {busy ? 'Working…' : 'Accept'}
            </Button>
          </>
        }
      >
        <p className="text-sm text-fg-muted">
          {name} is {monthly ? `${formatPrice(monthly[currency] / 100, currency)} a month` : 'a monthly plan'}
          , billed monthly.{' '}
          {startsCheckout
            ? 'You go to checkout with the code applied.'
            : `Your plan changes to ${name} now, with the code applied.`}
        </p>
      </Dialog>
      {dismissed && (
        <section
          aria-label="Your offer"
          className="fixed bottom-[calc(var(--parla-player-offset,0px)+1rem)] left-4 z-40 hidden max-w-sm items-center gap-3 rounded-xl border border-accent/40 bg-surface p-3 pl-4 text-sm shadow-lg md:flex"
        >
          <p>
            Your {name} offer is waiting{discount ? `: ${discount}` : ''}.
          </p>
          <Button size="sm" onClick={() => setPromoDismissed(promo, false)}>
            View offer
          </Button>
        </section>
      )}
    </>
  );
}
