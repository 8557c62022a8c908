import type { PendingInvite } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { useToast } from '../../../lib/toasts/use-toast';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { deleteWorkspaceInvite } from '../api/delete-workspace-invite';
import { invalidateWorkspace } from '../api/workspace-query-keys';
import { workspaceRoleLabels } from '../workspace-rules';

export interface PendingInvitesProps {
  invites: readonly z.infer<typeof PendingInvite>[];
  /** The caller holds the admin rights: each invitation can be withdrawn. */
  canManage: boolean;
}

/** The invitations not answered yet, each holding a seat; admins withdraw one (its link stops working). */
export function PendingInvites({ invites, canManage }: PendingInvitesProps) {
  const queryClient = useQueryClient();
  const { toast, toastError } = useToast();
  const withdraw = useMutation({
    mutationFn: deleteWorkspaceInvite,
    onSuccess: (_, email) => toast({ title: `Invitation to ${email} withdrawn`, variant: 'success' }),
    onError: toastError,
    onSettled: () => invalidateWorkspace(queryClient),
  });

  if (invites.length === 0) {
    return <p className="px-5 py-6 text-sm text-fg-muted">No invitations are waiting for an answer.</p>;
  }
  return (
    <ul aria-label="Pending invitations" className="divide-y divide-line">
      {invites.map((invite) => {
        const busy = withdraw.isPending && withdraw.variables === invite.email;
        return (
          <li
            key={invite.invite_id}
            className="flex flex-col gap-2 px-5 py-3 sm:flex-row sm:items-center sm:justify-between"
          >
            <div className="flex min-w-0 flex-col gap-0.5">
              <span className="flex flex-wrap items-center gap-2">
                <span className="truncate text-sm font-medium">{invite.email}</span>
                <Badge>{workspaceRoleLabels[invite.role]}</Badge>
              </span>
              <span className="text-xs text-fg-muted">
                Sent {formatDate(fromUnixSeconds(invite.created_at_unix))} · expires{' '}
                {formatDate(fromUnixSeconds(invite.expires_at_unix))}
              </span>
            </div>
            {canManage && (
              <Button
                variant="ghost"
                size="sm"
                className="self-start sm:self-auto"
                aria-label={`Withdraw invitation to ${invite.email}`}
                aria-disabled={busy || undefined}
                onClick={() => !busy && withdraw.mutate(invite.email)}
              >
                Withdraw
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
