import type { ConsentStateResponse } from '@parla/contracts';
import { useEffect, useRef } from 'react';
import { useUpdateConsent } from './api/update-consent';
import {
  browserSendsGpc,
  isCcpaOptOutResolved,
  markCcpaOptOutResolved,
  shouldSendCcpaOptOut,
} from './ccpa-opt-out';

/**
 * accounts §4 CCPA opt-out: once the consent state is known, an unresolved opt-out triggered by the stored
 * flag or the browser's Global Privacy Control sends `optOutCCPA: true`; success resolves it (the cookie).
 */
export function useCcpaOptOut(consent: ConsentStateResponse | undefined): void {
  const update = useUpdateConsent();
  const sent = useRef(false);
  const { mutate } = update;
  useEffect(() => {
    if (!consent || sent.current) return;
    const trigger = shouldSendCcpaOptOut({
      applies: consent.ccpa.applies,
      storedOptOut: consent.ccpa.opt_out,
      gpc: browserSendsGpc(),
      resolved: isCcpaOptOutResolved(),
    });
    if (!trigger) return;
    sent.current = true;
    mutate({ optOutCCPA: true }, { onSuccess: () => markCcpaOptOutResolved() });
  }, [consent, mutate]);
}
