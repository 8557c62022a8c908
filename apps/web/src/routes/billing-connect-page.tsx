import type { HostedSession } from '@parla/contracts';
import { useMutation } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { completeConnectSession } from '../features/billing/api/complete-connect-session';
import { HostedPageFrame } from '../features/billing/components/hosted-page-frame';
import { HostedSessionGate } from '../features/billing/components/hosted-session-gate';
import { getToastMessage } from '../lib/http-error';
import { leaveAppTo } from '../lib/leave-app';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { FormMessage } from '../ui/field';

/** `/billing/connect/:session_id`: the test-mode provider's payouts onboarding, open without sign-in. */
export default function BillingConnectPage() {
  const { session_id: sessionId = '' } = useParams();
  return (
    <HostedSessionGate sessionId={sessionId} kind="connect">
      {(session) => <Connect session={session} />}
    </HostedSessionGate>
  );
}

function Connect({ session }: { session: HostedSession }) {
  const finish = useMutation({
    mutationFn: () => completeConnectSession(session.session_id),
    onSuccess: (outcome) => leaveAppTo(outcome.redirect_url ?? session.return_url),
  });
  const busy = finish.isPending || finish.isSuccess;
  return (
    <HostedPageFrame>
      <Card aria-labelledby="connect-title" className="flex flex-col gap-4 p-6">
        <div className="flex flex-col gap-1">
          <h1 id="connect-title" className="text-2xl font-semibold tracking-tight">
            Set up payouts
          </h1>
          <p className="text-fg-muted">
            Payouts for {session.workspace_name} go to this account. In test mode there are no business or
            bank details to enter: finishing the setup opens the account at once.
          </p>
        </div>
        {finish.isError && <FormMessage>{getToastMessage(finish.error)}</FormMessage>}
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={busy ? undefined : () => finish.mutate()} aria-disabled={busy || undefined}>
            {busy ? 'Finishing…' : 'Finish setup'}
          </Button>
          <a className="text-sm text-fg-muted hover:text-fg" href={session.return_url}>
            Return to Parla
          </a>
        </div>
      </Card>
    </HostedPageFrame>
  );
}
