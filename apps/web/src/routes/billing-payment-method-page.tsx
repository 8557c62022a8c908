import type { HostedSession } from '@parla/contracts';
import { useParams } from 'react-router';
import { paymentMethodText } from '../features/billing/card-form-rules';
import { AuthenticateStep } from '../features/billing/components/authenticate-step';
import { CardForm } from '../features/billing/components/card-form';
import { HostedPageFrame } from '../features/billing/components/hosted-page-frame';
import { HostedSessionGate } from '../features/billing/components/hosted-session-gate';
import { useCardStep } from '../features/billing/use-card-step';

/** `/billing/payment-method/:session_id`: the test-mode provider's change-card page, open without sign-in. */
export default function BillingPaymentMethodPage() {
  const { session_id: sessionId = '' } = useParams();
  return (
    <HostedSessionGate sessionId={sessionId} kind="payment_method">
      {(session) => <PaymentMethod session={session} />}
    </HostedSessionGate>
  );
}

function PaymentMethod({ session }: { session: HostedSession }) {
  const card = useCardStep(session);
  return (
    <HostedPageFrame>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Update your payment method</h1>
        <p className="text-fg-muted">
          The new card pays the next invoices of {session.workspace_name}.
          {session.payment_method && ` It replaces ${paymentMethodText(session.payment_method)}.`}
        </p>
      </div>
      {card.step === 'authenticate' ? (
        <AuthenticateStep busy={card.busy} onDecide={card.authenticate} />
      ) : (
        <CardForm submitLabel="Save card" busy={card.busy} error={card.error} onSubmit={card.submit} />
      )}
      {card.step === 'redirecting' && (
        <p role="status" className="text-sm text-fg-muted">
          Card saved. Taking you back to Parla…
        </p>
      )}
      <a className="text-sm text-fg-muted hover:text-fg" href={session.return_url}>
        Cancel and return to Parla
      </a>
    </HostedPageFrame>
  );
}
