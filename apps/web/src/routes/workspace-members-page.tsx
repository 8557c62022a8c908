import { hasAdminRights } from '@parla/contracts';
import { clsx } from 'clsx';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useWorkspaceSummary } from '../features/workspace/api/get-workspace';
import { useWorkspaceGroups } from '../features/workspace/api/list-workspace-groups';
import { useWorkspaceInvites } from '../features/workspace/api/list-workspace-invites';
import { useWorkspaceMembers } from '../features/workspace/api/list-workspace-members';
import { InviteMemberDialog } from '../features/workspace/components/invite-member-dialog';
import { MemberList } from '../features/workspace/components/member-list';
import { PendingInvites } from '../features/workspace/components/pending-invites';
import { WorkspacePageHeader } from '../features/workspace/components/workspace-nav';
import { describeSeats, inviteBlockedReason } from '../features/workspace/workspace-rules';
import { useAuth } from '../lib/auth/auth-provider';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { LoadError } from '../ui/load-error';
import { Skeleton, SkeletonRow } from '../ui/skeleton';

/**
 * `/app/workspace/members` (accounts §1/§6/§9): the workspace's members and pending invitations, and the
 * seats they hold. Admins (and editors) invite, change roles, lock and remove; the owner may transfer the
 * ownership. Members read.
 */
export default function WorkspaceMembersPage() {
  return (
    <RequireSignIn>
      <WorkspaceMembers />
    </RequireSignIn>
  );
}

function WorkspaceMembers() {
  const id = useId();
  const { user } = useAuth();
  const summary = useWorkspaceSummary();
  const members = useWorkspaceMembers();
  const canManage = hasAdminRights(summary.data?.role);
  // The addresses invited are the admins' to see.
  const invites = useWorkspaceInvites({ enabled: canManage });
  const groups = useWorkspaceGroups({ enabled: canManage });
  const [inviting, setInviting] = useState(false);

  const seats = summary.data;
  const full = seats !== undefined && seats.seats_used >= seats.max_seats;
  const blocked = seats ? inviteBlockedReason(seats.seats_used, seats.max_seats) : undefined;
  const blockedId = useId();

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <WorkspacePageHeader
        title="Members"
        description={
          summary.isPending ? (
            <Skeleton className="mt-1 h-4 w-40" />
          ) : seats ? (
            <p className={clsx('tabular-nums', full && canManage && 'text-warning')}>
              <span>{describeSeats(seats.seats_used, seats.max_seats)}</span>
              <span className="text-fg-muted"> · members and pending invitations each hold a seat</span>
              {full && canManage && (
                <>
                  {' · '}
                  <Link to="/app/subscription" className="font-medium underline-offset-2 hover:underline">
                    Upgrade for more seats
                  </Link>
                </>
              )}
            </p>
          ) : (
            <p>The people who work in this workspace.</p>
          )
        }
        actions={
          canManage && (
            <div className="flex max-w-xs flex-col items-start gap-1.5 sm:items-end">
              {/* Focusable while off (aria-disabled), so keyboard and screen-reader users meet the reason. */}
              <Button
                aria-disabled={blocked ? true : undefined}
                aria-describedby={blocked ? blockedId : undefined}
                onClick={() => !blocked && setInviting(true)}
              >
                Invite member
              </Button>
              {blocked && (
                <p id={blockedId} className="text-xs text-fg-muted sm:text-right">
                  {blocked}
                </p>
              )}
            </div>
          )
        }
      />

      {summary.data && !canManage && (
        <p className="rounded-lg border border-line bg-subtle px-4 py-3 text-sm text-fg-muted" role="note">
          Only workspace admins can invite, change or remove members.
        </p>
      )}
      {summary.isError && <LoadError error={summary.error} onRetry={() => void summary.refetch()} />}

      <Card aria-labelledby={`${id}-members`}>
        <CardHeader>
          <h2 id={`${id}-members`} className="text-base font-semibold">
            People
            {members.data && (
              <span className="ml-2 text-sm font-normal text-fg-muted tabular-nums">
                {members.data.length}
              </span>
            )}
          </h2>
        </CardHeader>
        {members.isPending ? (
          <ul aria-busy="true" aria-label="Loading members" className="divide-y divide-line">
            <SkeletonRow lineWidths={['w-48', 'w-32']} />
            <SkeletonRow lineWidths={['w-40', 'w-28']} />
          </ul>
        ) : members.isError ? (
          <LoadError error={members.error} onRetry={() => void members.refetch()} className="p-5" />
        ) : members.data.length === 0 ? (
          <p className="px-5 py-6 text-sm text-fg-muted">Nobody is a member of this workspace yet.</p>
        ) : (
          <MemberList
            members={members.data}
            currentUserId={user?.user_id}
            canManage={canManage}
            isOwner={summary.data?.is_owner === true}
          />
        )}
      </Card>

      {canManage && (
        <Card aria-labelledby={`${id}-invites`}>
          <CardHeader>
            <div>
              <h2 id={`${id}-invites`} className="text-base font-semibold">
                Pending invitations
              </h2>
              <p className="mt-1 text-sm text-fg-muted">
                Each invitation holds a seat until it is accepted, declined, withdrawn or a week has passed.
              </p>
            </div>
          </CardHeader>
          {invites.isPending ? (
            <div className="flex flex-col gap-3 p-5" aria-busy="true">
              <Skeleton className="h-8 w-full" />
            </div>
          ) : invites.isError ? (
            <LoadError error={invites.error} onRetry={() => void invites.refetch()} className="p-5" />
          ) : (
            <PendingInvites invites={invites.data} canManage={canManage} />
          )}
        </Card>
      )}

      <InviteMemberDialog open={inviting} onClose={() => setInviting(false)} groups={groups.data ?? []} />
    </div>
  );
}
