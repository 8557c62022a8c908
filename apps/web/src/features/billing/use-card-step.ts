import type { CardDetails, HostedSession } from '@parla/contracts';
import { useState } from 'react';
import { getToastMessage } from '../../lib/http-error';
import { leaveAppTo } from '../../lib/leave-app';
import { authenticateSession } from './api/authenticate-session';
import { type SessionOutcome, submitCard } from './api/submit-card';

export type CardStep = 'card' | 'authenticate' | 'redirecting';

/**
 * The card flow of a checkout or payment-method session: the card is sent; a decline (402
 * `card_declined`) shows the provider's message and the form stays for another card; `requires_action`
 * asks for the simulated authentication; `succeeded` leaves for the session's redirect.
 */
export function useCardStep(session: HostedSession) {
  const [step, setStep] = useState<CardStep>(session.status === 'requires_action' ? 'authenticate' : 'card');
  const [error, setError] = useState<string | null>(session.last_error);
  const [busy, setBusy] = useState(false);

  const follow = (outcome: SessionOutcome) => {
    if (outcome.status === 'requires_action') return setStep('authenticate');
    setStep('redirecting');
    leaveAppTo(outcome.redirect_url ?? session.return_url);
  };

  const run = async (call: () => Promise<SessionOutcome>, onError: () => void) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      follow(await call());
    } catch (caught) {
      setError(getToastMessage(caught));
      onError();
    } finally {
      setBusy(false);
    }
  };

  return {
    step,
    error,
    busy: busy || step === 'redirecting',
    submit: (card: CardDetails) =>
      void run(
        () => submitCard(session.session_id, card),
        () => setStep('card'),
      ),
    /** A failed authentication is a decline: back to the card form with the message. */
    authenticate: (approve: boolean) =>
      void run(
        () => authenticateSession(session.session_id, approve),
        () => setStep('card'),
      ),
  };
}
