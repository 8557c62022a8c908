import { EmailAddress, type WorkspaceGroup, type WorkspaceRole } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, inputClasses, TextField } from '../../../ui/field';
import { FormActions } from '../../../ui/form-actions';
import { inviteWorkspaceMember } from '../api/invite-workspace-member';
import { invalidateWorkspace } from '../api/workspace-query-keys';
import { workspaceRoleLabels, workspaceRoleOptions } from '../workspace-rules';

export interface InviteMemberDialogProps {
  open: boolean;
  onClose: () => void;
  /** The workspace's groups, offered as checkboxes when there are any. */
  groups: readonly WorkspaceGroup[];
}

/**
 * "Invite a member" (accounts §6): an email, a role and optional groups. The invitation is mailed and holds a
 * seat until it is answered; the server's reason (a full plan: seat_limit_reached) shows in the dialog.
 */
export function InviteMemberDialog({ open, onClose, groups }: InviteMemberDialogProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<WorkspaceRole>('member');
  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [emailError, setEmailError] = useState<string>();
  const [error, setError] = useState<string>();

  const invite = useMutation({
    mutationFn: inviteWorkspaceMember,
    onSuccess: (_, sent) => {
      toast({ title: `Invitation sent to ${sent.email}`, variant: 'success' });
      void invalidateWorkspace(queryClient);
      close();
    },
    onError: (caught) => setError(getToastMessage(caught)),
  });

  function close() {
    setEmail('');
    setRole('member');
    setGroupIds([]);
    setEmailError(undefined);
    setError(undefined);
    invite.reset();
    onClose();
  }

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (invite.isPending) return;
    const parsed = EmailAddress.safeParse(email);
    if (!parsed.success) {
      setEmailError('Enter a valid email address.');
      return;
    }
    setError(undefined);
    invite.mutate({ email: parsed.data, role, ...(groupIds.length > 0 ? { group_ids: groupIds } : {}) });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && !invite.isPending && close()}
      title="Invite a member"
      description="We email them a link to join. The invitation holds a seat until they answer it, for up to a week."
    >
      <form className="flex flex-col gap-4" onSubmit={handleSubmit} noValidate>
        <TextField
          label="Email"
          type="email"
          name="invite-email"
          autoComplete="off"
          autoFocus
          required
          value={email}
          error={emailError}
          onChange={(event) => {
            setEmail(event.target.value);
            setEmailError(undefined);
          }}
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-role`} className="text-sm font-medium text-fg">
            Role
          </label>
          <select
            id={`${id}-role`}
            className={inputClasses}
            value={role}
            aria-describedby={`${id}-role-note`}
            onChange={(event) => setRole(event.target.value as WorkspaceRole)}
          >
            {workspaceRoleOptions.map((option) => (
              <option key={option} value={option}>
                {workspaceRoleLabels[option]}
              </option>
            ))}
          </select>
          <p id={`${id}-role-note`} className="text-sm text-fg-muted">
            Members work in the workspace. Editors and admins also manage its members, groups and settings.
          </p>
        </div>
        {groups.length > 0 && (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-fg">
              Groups <span className="font-normal text-fg-muted">(optional)</span>
            </legend>
            <div className="flex max-h-40 flex-col gap-2 overflow-y-auto">
              {groups.map((group) => (
                <label key={group.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-accent"
                    checked={groupIds.includes(group.id)}
                    onChange={(event) =>
                      setGroupIds((current) =>
                        event.target.checked
                          ? [...current, group.id]
                          : current.filter((groupId) => groupId !== group.id),
                      )
                    }
                  />
                  {group.name}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        {error && <FormMessage>{error}</FormMessage>}
        <FormActions submitLabel="Send invitation" pending={invite.isPending} onCancel={close} />
      </form>
    </Dialog>
  );
}
