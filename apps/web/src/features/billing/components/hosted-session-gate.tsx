import { buildPath, type HostedSession, hostedSessionPaths } from '@parla/contracts';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { getToastMessage, isHttpError } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { FormMessage } from '../../../ui/field';
import { Skeleton } from '../../../ui/skeleton';
import { useHostedSession } from '../api/get-hosted-session';
import { HostedPageFrame } from './hosted-page-frame';

const finishedCopy: Record<HostedSession['kind'], { complete: string; expired: string }> = {
  checkout: {
    complete: 'This checkout is complete. Your subscription is set up.',
    expired: 'This checkout has expired. Go back to Parla and choose your plan again.',
  },
  payment_method: {
    complete: 'Your card is already saved.',
    expired: 'This page has expired. Go back to Parla and start the card change again.',
  },
  portal: {
    complete: 'This billing session has ended.',
    expired: 'This billing session has expired. Open billing again from Parla.',
  },
  connect: {
    complete: 'Your payouts account is set up.',
    expired: 'This setup link has expired. Start the payouts setup again from Parla.',
  },
};

/** A hosted page's message instead of its content: a title, a line, and the way back. */
export function HostedMessage({
  title,
  children,
  returnUrl,
}: {
  title: string;
  children: ReactNode;
  returnUrl?: string;
}) {
  return (
    <HostedPageFrame>
      <Card className="flex flex-col items-start gap-3 p-6">
        <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
        <p className="text-fg-muted">{children}</p>
        <Button asChild variant="secondary">
          <a href={returnUrl ?? '/app/subscription'}>Return to Parla</a>
        </Button>
      </Card>
    </HostedPageFrame>
  );
}

export interface HostedSessionGateProps {
  sessionId: string;
  kind: HostedSession['kind'];
  /** The page for an open session (a checkout waiting on authentication counts as open). */
  children: (session: HostedSession) => ReactNode;
}

/**
 * Loads a hosted session and shows its page only while it can be acted on: a loading state, an unknown
 * link, an expired or complete session each get a clear message; a session of another kind goes to its
 * own page.
 */
export function HostedSessionGate({ sessionId, kind, children }: HostedSessionGateProps) {
  const session = useHostedSession(sessionId);
  if (session.isPending) {
    return (
      <HostedPageFrame>
        <div className="flex flex-col gap-4" aria-busy="true">
          <p className="sr-only">Loading…</p>
          <Skeleton className="h-8 w-56" />
          <Skeleton className="h-40 w-full rounded-xl" />
          <Skeleton className="h-64 w-full rounded-xl" />
        </div>
      </HostedPageFrame>
    );
  }
  if (session.isError) {
    if (isHttpError(session.error) && session.error.status === 404) {
      return (
        <HostedMessage title="This link is not valid">
          The payment page could not be found. Go back to Parla and start again.
        </HostedMessage>
      );
    }
    return (
      <HostedPageFrame>
        <div className="flex flex-col items-start gap-3">
          <FormMessage>{getToastMessage(session.error)}</FormMessage>
          <Button variant="secondary" onClick={() => void session.refetch()}>
            Try again
          </Button>
        </div>
      </HostedPageFrame>
    );
  }
  const data = session.data;
  if (data.kind !== kind) {
    return (
      <Navigate to={buildPath(hostedSessionPaths[data.kind], { session_id: data.session_id })} replace />
    );
  }
  if (data.status === 'expired') {
    return (
      <HostedMessage title="This session has expired" returnUrl={data.return_url}>
        {finishedCopy[kind].expired}
      </HostedMessage>
    );
  }
  if (data.status === 'complete') {
    return (
      <HostedMessage title="Already done" returnUrl={data.return_url}>
        {finishedCopy[kind].complete}
      </HostedMessage>
    );
  }
  return <>{children(data)}</>;
}
