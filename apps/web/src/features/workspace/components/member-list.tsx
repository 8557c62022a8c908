import type { WorkspaceMember, WorkspaceRole } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { useToast } from '../../../lib/toasts/use-toast';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { CommitSelect } from '../../../ui/commit-select';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { InitialAvatar } from '../../../ui/initial-avatar';
import { removeWorkspaceMember } from '../api/remove-workspace-member';
import { transferWorkspaceOwnership } from '../api/transfer-workspace-ownership';
import { updateWorkspaceMember } from '../api/update-workspace-member';
import { invalidateWorkspace } from '../api/workspace-query-keys';
import { memberDisplayName, workspaceRoleLabels, workspaceRoleOptions } from '../workspace-rules';
import { compactSelectClasses } from './compact-select';

export interface MemberListProps {
  members: readonly WorkspaceMember[];
  /** The signed-in user: they cannot lock or remove themselves here. */
  currentUserId: string | undefined;
  /** The caller holds the admin rights (admin or editor): the rows get their actions. */
  canManage: boolean;
  /** The caller owns the workspace: they may hand the ownership on. */
  isOwner: boolean;
}

/**
 * The workspace's members (accounts §6): name, email, role, owner and locked badges. Admins change a role,
 * lock, unlock or remove a member; the owner may make another member the owner. Everyone else reads.
 */
export function MemberList({ members, currentUserId, canManage, isOwner }: MemberListProps) {
  const queryClient = useQueryClient();
  const { toast, toastError } = useToast();
  const [removing, setRemoving] = useState<WorkspaceMember | null>(null);
  const [promoting, setPromoting] = useState<WorkspaceMember | null>(null);

  const update = useMutation({
    mutationFn: updateWorkspaceMember,
    onSuccess: (_, change) => {
      if (change.role) {
        toast({
          title: `${change.email} is now ${workspaceRoleLabels[change.role].toLowerCase()}`,
          variant: 'success',
        });
      } else {
        toast({
          title: change.is_locked ? `${change.email} is locked` : `${change.email} is unlocked`,
          variant: 'success',
        });
      }
    },
    onError: toastError,
    onSettled: () => invalidateWorkspace(queryClient),
  });
  const remove = useMutation({
    mutationFn: removeWorkspaceMember,
    onSuccess: (_, email) => {
      toast({ title: `${email} was removed from the workspace`, variant: 'success' });
      setRemoving(null);
    },
    onError: toastError,
    onSettled: () => invalidateWorkspace(queryClient),
  });
  const transfer = useMutation({
    mutationFn: transferWorkspaceOwnership,
    onSuccess: (_, email) => {
      toast({ title: `${email} now owns the workspace`, variant: 'success' });
      setPromoting(null);
    },
    onError: toastError,
    onSettled: () => invalidateWorkspace(queryClient),
  });

  return (
    <>
      <ul aria-label="Members" className="divide-y divide-line">
        {members.map((member) => {
          const self = member.user_id === currentUserId;
          const name = memberDisplayName(member);
          const headingId = `member-${member.user_id}`;
          const busy = update.isPending && update.variables?.email === member.email;
          // The owner stays an unlocked admin (the server's rule): their row has nothing to change.
          const editable = canManage && !member.is_owner;
          return (
            <li
              key={member.user_id}
              aria-labelledby={headingId}
              className="flex flex-col gap-3 px-5 py-4 md:flex-row md:items-center"
            >
              <div className="flex min-w-0 flex-1 items-center gap-3">
                <InitialAvatar name={name} className={member.is_locked ? 'opacity-50' : undefined} />
                <div className="flex min-w-0 flex-col gap-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span id={headingId} className="truncate text-sm font-semibold">
                      {member.email}
                    </span>
                    <Badge tone={member.role === 'member' ? 'neutral' : 'accent'}>
                      {workspaceRoleLabels[member.role]}
                    </Badge>
                    {member.is_owner && (
                      <Badge tone="success" dot>
                        Owner
                      </Badge>
                    )}
                    {member.is_locked && (
                      <Badge tone="warning" dot>
                        Locked
                      </Badge>
                    )}
                    {self && <span className="text-xs text-fg-muted">(you)</span>}
                  </div>
                  <p className="truncate text-xs text-fg-muted">
                    {member.first_name?.trim() ? `${member.first_name.trim()} · ` : ''}
                    Joined {formatDate(fromUnixSeconds(member.joined_at_unix))}
                  </p>
                </div>
              </div>
              {canManage && (
                <div className="flex flex-wrap items-center gap-1 pl-12 md:pl-0">
                  {editable && (
                    <>
                      <label className="sr-only" htmlFor={`${headingId}-role`}>
                        Role for {member.email}
                      </label>
                      <CommitSelect
                        id={`${headingId}-role`}
                        className={compactSelectClasses}
                        value={member.role}
                        disabled={busy}
                        onCommit={(next) =>
                          update.mutate({ email: member.email, role: next as WorkspaceRole })
                        }
                      >
                        {workspaceRoleOptions.map((option) => (
                          <option key={option} value={option}>
                            {workspaceRoleLabels[option]}
                          </option>
                        ))}
                      </CommitSelect>
                      {!self && (
                        <Button
                          variant="ghost"
                          size="sm"
                          aria-label={`${member.is_locked ? 'Unlock' : 'Lock'} ${member.email}`}
                          aria-disabled={busy || undefined}
                          onClick={() =>
                            !busy && update.mutate({ email: member.email, is_locked: !member.is_locked })
                          }
                        >
                          {member.is_locked ? 'Unlock' : 'Lock'}
                        </Button>
                      )}
                      {!self && (
                        <Button
                          variant="ghost"
                          size="sm"
                          className="text-danger hover:text-danger"
                          aria-label={`Remove ${member.email}`}
                          onClick={() => setRemoving(member)}
                        >
                          Remove
                        </Button>
                      )}
                    </>
                  )}
                  {isOwner && !member.is_owner && (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Make ${member.email} owner`}
                      onClick={() => setPromoting(member)}
                    >
                      Make owner
                    </Button>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ul>

      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.email ?? 'member'}?`}
        description="Their seat is freed, they leave the workspace's groups, and what was shared with them is unshared. What they made stays with the workspace."
        confirmLabel="Remove member"
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing.email)}
        onCancel={() => setRemoving(null)}
      />
      <ConfirmDialog
        open={promoting !== null}
        title={`Make ${promoting?.email ?? 'member'} owner?`}
        description="They become the owner of the workspace and its subscription. You stay an admin, and only the new owner can hand the ownership on again."
        confirmLabel="Transfer ownership"
        tone="primary"
        pending={transfer.isPending}
        onConfirm={() => promoting && transfer.mutate(promoting.email)}
        onCancel={() => setPromoting(null)}
      />
    </>
  );
}
