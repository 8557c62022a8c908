import type { WorkspaceGroup, WorkspaceMember } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Card, CardContent, CardHeader } from '../../../ui/card';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { InitialAvatar } from '../../../ui/initial-avatar';
import { addWorkspaceGroupMember } from '../api/add-workspace-group-member';
import { deleteWorkspaceGroup } from '../api/delete-workspace-group';
import { removeWorkspaceGroupMember } from '../api/remove-workspace-group-member';
import { invalidateWorkspace } from '../api/workspace-query-keys';
import { compactSelectClasses } from './compact-select';

export interface GroupCardProps {
  group: WorkspaceGroup;
  /** The workspace's members, offered to add (those not in the group yet). */
  members: readonly WorkspaceMember[];
  /** The caller holds the admin rights: they add, remove and delete. */
  canManage: boolean;
}

/** A group (accounts §1 "Group permissions exist per workspace group"): its members and, for admins, changes. */
export function GroupCard({ group, members, canManage }: GroupCardProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const { toast, toastError } = useToast();
  const [adding, setAdding] = useState('');
  const [deleting, setDeleting] = useState(false);
  const candidates = members.filter((member) => !group.members.includes(member.email));
  const chosen = candidates.some((member) => member.email === adding) ? adding : '';

  const add = useMutation({
    mutationFn: (email: string) => addWorkspaceGroupMember(group.id, email),
    onSuccess: (_, email) => {
      toast({ title: `${email} added to ${group.name}`, variant: 'success' });
      setAdding('');
    },
    onError: toastError,
    onSettled: () => invalidateWorkspace(queryClient),
  });
  const remove = useMutation({
    mutationFn: (email: string) => removeWorkspaceGroupMember(group.id, email),
    onSuccess: (_, email) => toast({ title: `${email} removed from ${group.name}`, variant: 'success' }),
    onError: toastError,
    onSettled: () => invalidateWorkspace(queryClient),
  });
  const drop = useMutation({
    mutationFn: () => deleteWorkspaceGroup(group.id),
    onSuccess: () => {
      toast({ title: `${group.name} was deleted`, variant: 'success' });
      setDeleting(false);
    },
    onError: toastError,
    onSettled: () => invalidateWorkspace(queryClient),
  });

  const handleAdd = (event: FormEvent) => {
    event.preventDefault();
    if (chosen && !add.isPending) add.mutate(chosen);
  };

  return (
    <Card aria-labelledby={`${id}-name`}>
      <CardHeader>
        <div className="min-w-0">
          <h2 id={`${id}-name`} className="truncate text-base font-semibold">
            {group.name}
          </h2>
          <p className="mt-0.5 text-sm text-fg-muted tabular-nums">
            {group.members.length} {group.members.length === 1 ? 'member' : 'members'}
          </p>
        </div>
        {canManage && (
          <Button
            variant="ghost"
            size="sm"
            className="text-danger hover:text-danger"
            aria-label={`Delete ${group.name}`}
            onClick={() => setDeleting(true)}
          >
            Delete
          </Button>
        )}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {group.members.length === 0 ? (
          <p className="text-sm text-fg-muted">Nobody is in this group yet.</p>
        ) : (
          <ul aria-label={`Members of ${group.name}`} className="flex flex-col gap-2">
            {group.members.map((email) => {
              const busy = remove.isPending && remove.variables === email;
              return (
                <li key={email} className="flex items-center gap-3">
                  <InitialAvatar name={email} className="size-7 text-xs" />
                  <span className="min-w-0 flex-1 truncate text-sm">{email}</span>
                  {canManage && (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Remove ${email} from ${group.name}`}
                      aria-disabled={busy || undefined}
                      onClick={() => !busy && remove.mutate(email)}
                    >
                      Remove
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {canManage &&
          (candidates.length === 0 ? (
            <p className="text-xs text-fg-muted">Every member of the workspace is in this group.</p>
          ) : (
            <form className="flex flex-wrap items-center gap-2" onSubmit={handleAdd}>
              <label htmlFor={`${id}-add`} className="sr-only">
                Add member to {group.name}
              </label>
              <select
                id={`${id}-add`}
                className={`${compactSelectClasses} min-w-0 flex-1`}
                value={chosen}
                onChange={(event) => setAdding(event.target.value)}
              >
                <option value="">Choose a member…</option>
                {candidates.map((member) => (
                  <option key={member.user_id} value={member.email}>
                    {member.email}
                  </option>
                ))}
              </select>
              <Button
                type="submit"
                variant="secondary"
                size="sm"
                aria-disabled={!chosen || add.isPending || undefined}
              >
                Add
              </Button>
            </form>
          ))}
      </CardContent>
      <ConfirmDialog
        open={deleting}
        title={`Delete ${group.name}?`}
        description="Its members stay in the workspace; whatever was shared with the group is no longer shared with them through it."
        confirmLabel="Delete group"
        pending={drop.isPending}
        onConfirm={() => drop.mutate()}
        onCancel={() => setDeleting(false)}
      />
    </Card>
  );
}
