import type { ReceivedInvite } from '@parla/contracts';
import { useEffect, useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useReceivedInvites } from '../features/workspace/api/list-received-invites';
import {
  forgetInviteCode,
  INVITE_CODE_PARAM,
  readInviteCode,
  rememberInviteCode,
} from '../features/workspace/invite-code';
import { useAnswerInvite } from '../features/workspace/use-answer-invite';
import { workspaceRoleLabels } from '../features/workspace/workspace-rules';
import { formatDate, fromUnixSeconds } from '../lib/format-date';
import { getToastMessage, isHttpError } from '../lib/http-error';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardHeader } from '../ui/card';
import { FormMessage } from '../ui/field';
import { SpinnerIcon } from '../ui/icons';
import { LoadError } from '../ui/load-error';
import { SkeletonRow } from '../ui/skeleton';

/**
 * `/app/settings/workspace-invites` (accounts §2/§4): the invitations addressed to the signed-in user, to
 * accept or decline. Opened from the mailed link (`?invite_code=`), it first offers that invitation;
 * signed-out visitors sign in (or up) and come back with the code.
 */
export default function WorkspaceInvitesPage() {
  const [search] = useSearchParams();
  const code = search.get(INVITE_CODE_PARAM);
  // Kept before sign-in sends a signed-out visitor away: the code survives sign-up and verification.
  useEffect(() => {
    if (code) rememberInviteCode(code);
  }, [code]);
  return (
    <RequireSignIn>
      <WorkspaceInvites />
    </RequireSignIn>
  );
}

function WorkspaceInvites() {
  const [search, setSearch] = useSearchParams();
  const code = search.get(INVITE_CODE_PARAM);
  // Back without the link's code (after sign-up and verification in another tab, say): the code kept from
  // the link opened before signing in is offered, as if the link were opened again.
  useEffect(() => {
    const kept = readInviteCode();
    if (!code && kept) {
      setSearch(
        (current) => {
          const next = new URLSearchParams(current);
          next.set(INVITE_CODE_PARAM, kept);
          return next;
        },
        { replace: true },
      );
    }
  }, [code, setSearch]);
  const forgetCode = () => {
    forgetInviteCode();
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(INVITE_CODE_PARAM);
        return next;
      },
      { replace: true },
    );
  };

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10 sm:px-6">
      <header>
        <p className="text-sm text-fg-muted">
          <Link className="hover:text-fg" to="/app/settings">
            Settings
          </Link>{' '}
          / Workspace invitations
        </p>
        <h1 className="mt-1 text-3xl font-semibold tracking-tight">Workspace invitations</h1>
        <p className="mt-1 max-w-xl text-fg-muted">
          Join a workspace to work with its members on shared voices and generations. You keep your own
          workspace and can switch back at any time.
        </p>
      </header>
      {code && <InviteCodeCard code={code} onDeclined={forgetCode} />}
      <ReceivedInvites />
    </div>
  );
}

/** The invitation of the mailed link: accept (join and go to its members) or decline. */
function InviteCodeCard({ code, onDeclined }: { code: string; onDeclined: () => void }) {
  const id = useId();
  const { accept, decline } = useAnswerInvite();
  const busy = accept.isPending || decline.isPending;
  const error = accept.error ?? decline.error;
  // An answered invitation, or one the server refuses (expired, withdrawn, used), is not kept any longer.
  const settled =
    accept.isSuccess ||
    decline.isSuccess ||
    (isHttpError(error) && error.status >= 400 && error.status < 500);
  useEffect(() => {
    if (settled) forgetInviteCode();
  }, [settled]);
  return (
    <Card aria-labelledby={`${id}-title`} className="border-accent/40">
      <CardHeader>
        <div>
          <h2 id={`${id}-title`} className="text-base font-semibold">
            You have been invited to join a workspace
          </h2>
          <p className="mt-1 text-sm text-fg-muted">
            Accept to become a member and start working in it. It becomes your current workspace.
          </p>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {error && <FormMessage>{getToastMessage(error)}</FormMessage>}
        <div className="flex flex-wrap gap-2">
          <Button
            aria-disabled={busy || undefined}
            aria-busy={accept.isPending || undefined}
            onClick={() => !busy && accept.mutate({ answer: { invite_code: code } })}
          >
            {accept.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
            Accept invitation
          </Button>
          <Button
            variant="secondary"
            aria-disabled={busy || undefined}
            onClick={() => !busy && decline.mutate({ invite_code: code }, { onSuccess: onDeclined })}
          >
            Decline
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

/** The pending invitations to the user's verified email. */
function ReceivedInvites() {
  const id = useId();
  const invites = useReceivedInvites();
  return (
    <Card aria-labelledby={`${id}-title`}>
      <CardHeader>
        <h2 id={`${id}-title`} className="text-base font-semibold">
          Invitations to you
        </h2>
      </CardHeader>
      {invites.isPending ? (
        <ul aria-busy="true" aria-label="Loading invitations">
          <SkeletonRow lineWidths={['w-48', 'w-32']} />
        </ul>
      ) : invites.isError ? (
        <LoadError error={invites.error} onRetry={() => void invites.refetch()} className="p-5" />
      ) : invites.data.length === 0 ? (
        <div className="flex flex-col gap-1 px-5 py-8 text-center">
          <p className="font-medium">No invitations right now</p>
          <p className="text-sm text-fg-muted">
            Invitations to your email show here once it is verified; the link in an invitation email works
            either way.
          </p>
        </div>
      ) : (
        <ul aria-label="Invitations to you" className="divide-y divide-line">
          {invites.data.map((invite) => (
            <ReceivedInviteRow key={invite.invite_id} invite={invite} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function ReceivedInviteRow({ invite }: { invite: ReceivedInvite }) {
  const { accept, decline } = useAnswerInvite();
  const busy = accept.isPending || decline.isPending;
  const error = accept.error ?? decline.error;
  const answer = { invite_id: invite.invite_id };
  return (
    <li className="flex flex-col gap-3 px-5 py-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 flex-col gap-0.5">
          <span className="flex flex-wrap items-center gap-2">
            <span className="truncate text-sm font-semibold">{invite.workspace_name}</span>
            <Badge>{workspaceRoleLabels[invite.role]}</Badge>
          </span>
          <span className="text-xs text-fg-muted">
            {invite.invited_by ? `From ${invite.invited_by} · ` : ''}
            Expires {formatDate(fromUnixSeconds(invite.expires_at_unix))}
          </span>
        </div>
        <div className="flex gap-2">
          <Button
            size="sm"
            aria-label={`Accept invitation to ${invite.workspace_name}`}
            aria-disabled={busy || undefined}
            aria-busy={accept.isPending || undefined}
            onClick={() => !busy && accept.mutate({ answer, workspaceName: invite.workspace_name })}
          >
            {accept.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
            Accept
          </Button>
          <Button
            size="sm"
            variant="secondary"
            aria-label={`Decline invitation to ${invite.workspace_name}`}
            aria-disabled={busy || undefined}
            onClick={() => !busy && decline.mutate(answer)}
          >
            Decline
          </Button>
        </div>
      </div>
      {error && <FormMessage>{getToastMessage(error)}</FormMessage>}
    </li>
  );
}
