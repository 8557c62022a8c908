import { formatPrice, type HostedSession } from '@parla/contracts';
import { useParams } from 'react-router';
import { AuthenticateStep } from '../features/billing/components/authenticate-step';
import { CardForm } from '../features/billing/components/card-form';
import { HostedPageFrame } from '../features/billing/components/hosted-page-frame';
import { HostedSessionGate } from '../features/billing/components/hosted-session-gate';
import { periodLabel } from '../features/billing/subscription-summary';
import { useCardStep } from '../features/billing/use-card-step';
import { Card } from '../ui/card';

/** `/billing/checkout/:session_id`: the test-mode provider's checkout, open without sign-in. */
export default function BillingCheckoutPage() {
  const { session_id: sessionId = '' } = useParams();
  return (
    <HostedSessionGate sessionId={sessionId} kind="checkout">
      {(session) => <Checkout session={session} />}
    </HostedSessionGate>
  );
}

function money(cents: number | null, session: HostedSession): string {
  return cents === null ? '—' : formatPrice(cents / 100, session.currency);
}

function Checkout({ session }: { session: HostedSession }) {
  const card = useCardStep(session);
  const period = periodLabel(session.billing_period);
  return (
    <HostedPageFrame wide>
      <h1 className="text-2xl font-semibold tracking-tight">Subscribe to {session.plan_name ?? 'Parla'}</h1>
      <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)] md:items-start">
        <Card aria-labelledby="order-title" className="flex flex-col gap-4 p-5">
          <h2 id="order-title" className="text-base font-semibold">
            Order summary
          </h2>
          <dl className="flex flex-col gap-3 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-fg-muted">Workspace</dt>
              <dd>{session.workspace_name}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-fg-muted">Plan</dt>
              <dd>
                {session.plan_name ?? '—'}
                {period && ` · ${period}`}
              </dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-fg-muted">Price</dt>
              <dd className="tabular-nums">
                {money(session.price_cents, session)}
                {session.billing_period &&
                  (session.billing_period === 'annual_period' ? ' / year' : ' / month')}
              </dd>
            </div>
            {session.discount_description && (
              <div className="flex justify-between gap-4">
                <dt className="text-fg-muted">Discount</dt>
                <dd className="text-success">{session.discount_description}</dd>
              </div>
            )}
            <div className="flex justify-between gap-4 border-t border-line pt-3 text-base font-semibold">
              <dt>Due today</dt>
              <dd className="tabular-nums">{money(session.amount_due_cents, session)}</dd>
            </div>
          </dl>
        </Card>
        <section aria-label="Payment" className="flex flex-col gap-4">
          {card.step === 'authenticate' ? (
            <AuthenticateStep busy={card.busy} onDecide={card.authenticate} />
          ) : (
            <CardForm
              submitLabel={`Pay ${money(session.amount_due_cents, session)}`}
              busy={card.busy}
              error={card.error}
              onSubmit={card.submit}
            />
          )}
          {card.step === 'redirecting' && (
            <p role="status" className="text-sm text-fg-muted">
              Payment complete. Taking you back to Parla…
            </p>
          )}
          <a className="text-sm text-fg-muted hover:text-fg" href={session.return_url}>
            Cancel and return to Parla
          </a>
        </section>
      </div>
    </HostedPageFrame>
  );
}
