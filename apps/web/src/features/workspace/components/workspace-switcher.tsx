import { useMutation, useQueryClient } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { useId } from 'react';
import { useAuth } from '../../../lib/auth/auth-provider';
import { useToast } from '../../../lib/toasts/use-toast';
import { CommitSelect } from '../../../ui/commit-select';
import { useUserWorkspaces } from '../api/list-user-workspaces';
import { switchWorkspace } from '../api/switch-workspace';
import { workspaceQueryKeys } from '../api/workspace-query-keys';
import { useEnterWorkspace } from '../use-enter-workspace';

/**
 * The workspace switcher (accounts §4), at the foot of the app's sidebar: shown to a signed-in user who
 * belongs to more than one workspace. Choosing one makes it the current workspace, refreshes the access
 * token (which names it) and fetches everything again. `className` sizes the select (default: header size).
 */
export function WorkspaceSwitcher({ className }: { className?: string } = {}) {
  const id = useId();
  const { status } = useAuth();
  const queryClient = useQueryClient();
  const { toast, toastError } = useToast();
  const workspaces = useUserWorkspaces({ enabled: status === 'signedIn' });
  const enterWorkspace = useEnterWorkspace();
  const switchTo = useMutation({
    mutationFn: async (workspaceId: string) => {
      await switchWorkspace(workspaceId);
      await enterWorkspace();
      // The list was dropped with everything else: keep it on screen, the new one current, until it is back.
      const list = workspaces.data?.map((w) => ({ ...w, is_current: w.workspace_id === workspaceId }));
      if (list) queryClient.setQueryData(workspaceQueryKeys.userWorkspaces, list);
    },
    onSuccess: (_, workspaceId) => {
      const name = workspaces.data?.find((w) => w.workspace_id === workspaceId)?.name;
      toast({ title: name ? `You are working in ${name}` : 'Workspace switched', variant: 'success' });
    },
    onError: toastError,
  });

  const list = workspaces.data;
  if (status !== 'signedIn' || !list || list.length < 2) return null;
  const current = switchTo.isPending ? switchTo.variables : list.find((w) => w.is_current)?.workspace_id;

  return (
    <div className="flex min-w-0 items-center">
      <label htmlFor={id} className="sr-only">
        Workspace
      </label>
      <CommitSelect
        id={id}
        value={current ?? ''}
        aria-busy={switchTo.isPending || undefined}
        onCommit={(next) => !switchTo.isPending && switchTo.mutate(next)}
        className={clsx(
          className ?? 'h-8 max-w-28 sm:max-w-44',
          'truncate rounded-md border border-line bg-surface px-2 text-sm font-medium text-fg shadow-xs hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-60',
        )}
      >
        {current === undefined && <option value="">Choose a workspace</option>}
        {list.map((workspace) => (
          <option key={workspace.workspace_id} value={workspace.workspace_id}>
            {workspace.name}
          </option>
        ))}
      </CommitSelect>
    </div>
  );
}
