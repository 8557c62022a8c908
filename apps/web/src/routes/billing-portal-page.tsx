import { formatPrice, type HostedSession, type Invoice } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { billingQueryKeys } from '../features/billing/api/billing-query-keys';
import { createPortalCardSession } from '../features/billing/api/create-portal-card-session';
import { payInvoice } from '../features/billing/api/pay-invoice';
import { paymentMethodText } from '../features/billing/card-form-rules';
import { HostedPageFrame } from '../features/billing/components/hosted-page-frame';
import { HostedSessionGate } from '../features/billing/components/hosted-session-gate';
import { formatDate, fromUnixSeconds } from '../lib/format-date';
import { leaveAppTo } from '../lib/leave-app';
import { useToast } from '../lib/toasts/use-toast';
import { Badge, type BadgeTone } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardHeader } from '../ui/card';

/** `/billing/portal/:session_id`: the test-mode provider's billing portal, open without sign-in. */
export default function BillingPortalPage() {
  const { session_id: sessionId = '' } = useParams();
  return (
    <HostedSessionGate sessionId={sessionId} kind="portal">
      {(session) => <Portal session={session} />}
    </HostedSessionGate>
  );
}

const statusTones: Record<Invoice['status'], BadgeTone> = {
  open: 'warning',
  paid: 'success',
  void: 'neutral',
};
const statusNames: Record<Invoice['status'], string> = { open: 'Open', paid: 'Paid', void: 'Void' };

function Portal({ session }: { session: HostedSession }) {
  const queryClient = useQueryClient();
  const { toast, toastError } = useToast();
  const changeCard = useMutation({ mutationFn: () => createPortalCardSession(session.session_id) });
  const pay = useMutation({
    mutationFn: (invoiceId: string) => payInvoice(session.session_id, invoiceId),
    onSuccess: () => {
      toast({ title: 'Invoice paid.', variant: 'success' });
      void queryClient.invalidateQueries({ queryKey: billingQueryKeys.hostedSession(session.session_id) });
    },
    onError: toastError,
  });
  const invoices = [...session.invoices].sort((a, b) => b.created_unix - a.created_unix);

  return (
    <HostedPageFrame wide>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Billing</h1>
          <p className="text-fg-muted">{session.workspace_name}</p>
        </div>
        <Button asChild variant="secondary">
          <a href={session.return_url}>Return to Parla</a>
        </Button>
      </div>

      <Card aria-labelledby="portal-card-title">
        <CardHeader className="items-center border-b-0">
          <div>
            <h2 id="portal-card-title" className="text-base font-semibold">
              Payment method
            </h2>
            <p className="mt-1 text-sm text-fg-muted">
              {session.payment_method ? paymentMethodText(session.payment_method) : 'No card on file.'}
            </p>
          </div>
          <Button
            variant="secondary"
            aria-disabled={changeCard.isPending || undefined}
            onClick={
              changeCard.isPending
                ? undefined
                : () =>
                    changeCard.mutate(undefined, {
                      onSuccess: ({ url }) => leaveAppTo(url),
                      onError: toastError,
                    })
            }
          >
            {session.payment_method ? 'Change card' : 'Add a card'}
          </Button>
        </CardHeader>
      </Card>

      <Card aria-labelledby="portal-invoices-title">
        <CardHeader>
          <h2 id="portal-invoices-title" className="text-base font-semibold">
            Invoices
          </h2>
        </CardHeader>
        {invoices.length === 0 ? (
          <CardContent>
            <p className="py-6 text-center text-sm text-fg-muted">No invoices yet.</p>
          </CardContent>
        ) : (
          <div className="relative overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-line text-fg-muted">
                <tr>
                  <th scope="col" className="px-5 py-3 font-medium">
                    Date
                  </th>
                  <th scope="col" className="px-5 py-3 font-medium">
                    Description
                  </th>
                  <th scope="col" className="px-5 py-3 text-right font-medium">
                    Amount
                  </th>
                  <th scope="col" className="px-5 py-3 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-5 py-3">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {invoices.map((invoice) => (
                  <tr key={invoice.invoice_id}>
                    <td className="px-5 py-3 whitespace-nowrap text-fg-muted">
                      {formatDate(fromUnixSeconds(invoice.created_unix))}
                    </td>
                    <td className="px-5 py-3">{invoice.description}</td>
                    <td className="px-5 py-3 text-right tabular-nums">
                      {formatPrice(invoice.amount_due_cents / 100, invoice.currency)}
                    </td>
                    <td className="px-5 py-3">
                      <Badge tone={statusTones[invoice.status]} dot>
                        {statusNames[invoice.status]}
                      </Badge>
                    </td>
                    <td className="px-5 py-3 text-right">
                      {invoice.status === 'open' && (
                        <Button
                          size="sm"
                          aria-label={`Pay ${invoice.description}`}
                          aria-disabled={pay.isPending || undefined}
                          onClick={pay.isPending ? undefined : () => pay.mutate(invoice.invoice_id)}
                        >
                          {pay.isPending && pay.variables === invoice.invoice_id ? 'Paying…' : 'Pay'}
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </HostedPageFrame>
  );
}
