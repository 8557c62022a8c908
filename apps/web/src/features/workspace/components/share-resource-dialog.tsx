import type { ResourceRole } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, inputClasses } from '../../../ui/field';
import { SpinnerIcon } from '../../../ui/icons';
import { InitialAvatar } from '../../../ui/initial-avatar';
import { LoadError } from '../../../ui/load-error';
import { Skeleton } from '../../../ui/skeleton';
import { useWorkspaceResource } from '../api/get-workspace-resource';
import { useWorkspaceGroups } from '../api/list-workspace-groups';
import { useWorkspaceMembers } from '../api/list-workspace-members';
import { type ShareTarget, shareWorkspaceResource } from '../api/share-workspace-resource';
import { unshareWorkspaceResource } from '../api/unshare-workspace-resource';
import { type ShareableResourceType, workspaceQueryKeys } from '../api/workspace-query-keys';
import {
  EVERYONE_GROUP_ID,
  listShareChoices,
  type ResourceGrant,
  resolveGrants,
  resourceRoleLabels,
  shareRoleOptions,
} from '../workspace-rules';

export interface ShareResourceDialogProps {
  /** The resource to share; the dialog is closed while null. */
  resource: { type: ShareableResourceType; id: string; name: string } | null;
  onClose: () => void;
}

/**
 * Shares a resource inside the workspace (history/voices §7 "resource share and unshare"): who has access
 * (members by email, groups by name, everyone), a grant to add or change, and each grant to take back. The
 * creator always keeps admin access.
 */
export function ShareResourceDialog({ resource, onClose }: ShareResourceDialogProps) {
  return (
    <Dialog
      open={resource !== null}
      onOpenChange={(next) => !next && onClose()}
      title={resource ? `Share ${resource.name}` : 'Share'}
      description="Members you share it with can use it; editors can also change it, admins can also share it."
      size="lg"
      footer={
        <Button variant="secondary" onClick={onClose}>
          Done
        </Button>
      }
    >
      {resource && <ShareResourceBody key={`${resource.type}:${resource.id}`} resource={resource} />}
    </Dialog>
  );
}

function ShareResourceBody({
  resource,
}: {
  resource: { type: ShareableResourceType; id: string; name: string };
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const metadata = useWorkspaceResource(resource.type, resource.id);
  const members = useWorkspaceMembers();
  const groups = useWorkspaceGroups();
  const [choice, setChoice] = useState(EVERYONE_GROUP_ID);
  const [role, setRole] = useState<ResourceRole>('viewer');
  const [error, setError] = useState<string>();

  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: workspaceQueryKeys.resource(resource.type, resource.id) });
  const share = useMutation({
    mutationFn: (input: { target: ShareTarget; role: ResourceRole; label: string }) =>
      shareWorkspaceResource(resource.type, resource.id, input.role, input.target),
    onSuccess: (_, input) => {
      setError(undefined);
      toast({ title: `${resource.name} is shared with ${input.label}`, variant: 'success' });
    },
    onError: (caught) => setError(getToastMessage(caught)),
    onSettled: refresh,
  });
  const unshare = useMutation({
    mutationFn: (grant: ResourceGrant) =>
      grant.target
        ? unshareWorkspaceResource(resource.type, resource.id, grant.target)
        : Promise.reject(new Error('This access cannot be removed.')),
    onSuccess: (_, grant) => {
      setError(undefined);
      toast({ title: `${resource.name} is no longer shared with ${grant.name}`, variant: 'success' });
    },
    onError: (caught) => setError(getToastMessage(caught)),
    onSettled: refresh,
  });

  if (metadata.isPending || members.isPending || groups.isPending) {
    return (
      <div className="flex flex-col gap-3" aria-busy="true">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-2/3" />
      </div>
    );
  }
  const failed = metadata.error ?? members.error ?? groups.error;
  if (failed || !metadata.data || !members.data || !groups.data) {
    return (
      <LoadError
        error={failed}
        onRetry={() => {
          void metadata.refetch();
          void members.refetch();
          void groups.refetch();
        }}
      />
    );
  }

  const grants = resolveGrants(metadata.data, members.data, groups.data);
  const choices = listShareChoices(metadata.data.creator_user_id, members.data, groups.data);
  const canShare = metadata.data.your_role === 'admin';
  const selected = choices.find((c) => c.value === choice) ?? choices[0];

  const handleShare = (event: FormEvent) => {
    event.preventDefault();
    if (!selected || share.isPending) return;
    share.mutate({ target: selected.target, role, label: selected.label });
  };

  return (
    <div className="flex flex-col gap-5">
      <section aria-labelledby={`${id}-access`} className="flex flex-col gap-2">
        <h3 id={`${id}-access`} className="text-sm font-medium">
          Who can use it
        </h3>
        <ul className="flex flex-col divide-y divide-line rounded-lg border border-line">
          {grants.map((grant) => {
            const busy = unshare.isPending && unshare.variables?.id === grant.id;
            return (
              <li key={`${grant.role}:${grant.id}`} className="flex items-center gap-3 px-3 py-2">
                <InitialAvatar name={grant.name} className="size-7 text-xs" />
                <span className="min-w-0 flex-1 truncate text-sm">{grant.name}</span>
                {grant.isCreator ? (
                  <Badge tone="success">Creator</Badge>
                ) : (
                  <Badge tone={grant.role === 'viewer' ? 'neutral' : 'accent'}>
                    {resourceRoleLabels[grant.role]}
                  </Badge>
                )}
                {canShare && grant.target && (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Stop sharing with ${grant.name}`}
                    aria-disabled={busy || undefined}
                    onClick={() => !busy && unshare.mutate(grant)}
                  >
                    Stop sharing
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      </section>

      {canShare ? (
        <form className="flex flex-col gap-3" onSubmit={handleShare}>
          <div className="grid gap-3 sm:grid-cols-[1fr_8.5rem_auto] sm:items-end">
            <div className="flex flex-col gap-1.5">
              <label htmlFor={`${id}-target`} className="text-sm font-medium text-fg">
                Share with
              </label>
              <select
                id={`${id}-target`}
                className={inputClasses}
                value={selected?.value}
                onChange={(event) => setChoice(event.target.value)}
              >
                {choices
                  .filter((c) => c.group === 'everyone')
                  .map((c) => (
                    <option key={c.value} value={c.value}>
                      {c.label}
                    </option>
                  ))}
                {choices.some((c) => c.group === 'members') && (
                  <optgroup label="Members">
                    {choices
                      .filter((c) => c.group === 'members')
                      .map((c) => (
                        <option key={c.value} value={c.value}>
                          {c.label}
                        </option>
                      ))}
                  </optgroup>
                )}
                {choices.some((c) => c.group === 'groups') && (
                  <optgroup label="Groups">
                    {choices
                      .filter((c) => c.group === 'groups')
                      .map((c) => (
                        <option key={c.value} value={c.value}>
                          {c.label}
                        </option>
                      ))}
                  </optgroup>
                )}
              </select>
            </div>
            <div className="flex flex-col gap-1.5">
              <label htmlFor={`${id}-role`} className="text-sm font-medium text-fg">
                Access
              </label>
              <select
                id={`${id}-role`}
                className={inputClasses}
                value={role}
                onChange={(event) => setRole(event.target.value as ResourceRole)}
              >
                {shareRoleOptions.map((option) => (
                  <option key={option} value={option}>
                    {resourceRoleLabels[option]}
                  </option>
                ))}
              </select>
            </div>
            <Button type="submit" aria-disabled={share.isPending || undefined} aria-busy={share.isPending}>
              {share.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
              Share
            </Button>
          </div>
          {error && <FormMessage>{error}</FormMessage>}
        </form>
      ) : (
        <p className="text-sm text-fg-muted">
          Only people with admin access to it can change who it is shared with.
        </p>
      )}
    </div>
  );
}
