import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useToast } from '../../lib/toasts/use-toast';
import { enterPromocode, type PromoOutcome, promoOutcomeMessage } from './promo';

/** Where the user goes once a promo code is in (accounts §2 "After a promo code is applied"). */
export const afterPromoPath = '/app/subscription';

/**
 * accounts §4 "Promo code entry" with its §8 toasts: a valid code is stored and the user goes to the
 * subscription page; otherwise the stored promo is cleared and the toast says why.
 */
export function usePromocodeEntry(): {
  enter: (code: string) => Promise<PromoOutcome>;
  busy: boolean;
} {
  const navigate = useNavigate();
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);
  const enter = async (code: string) => {
    setBusy(true);
    const outcome = await enterPromocode(code);
    setBusy(false);
    const message = promoOutcomeMessage(code.trim(), outcome);
    if (message) toast({ title: message, variant: 'error' });
    if (outcome.kind === 'valid') void navigate(afterPromoPath, { replace: true });
    return outcome;
  };
  return { enter, busy };
}
