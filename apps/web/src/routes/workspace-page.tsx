import { hasAdminRights, type WorkspaceSummary } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useWorkspaceSummary } from '../features/workspace/api/get-workspace';
import { updateWorkspaceSettings } from '../features/workspace/api/update-workspace-settings';
import { invalidateWorkspace, workspaceQueryKeys } from '../features/workspace/api/workspace-query-keys';
import { NameForm } from '../features/workspace/components/name-form';
import { WorkspacePageHeader } from '../features/workspace/components/workspace-nav';
import { describeSeats, workspaceRoleLabels } from '../features/workspace/workspace-rules';
import { useToast } from '../lib/toasts/use-toast';
import { Card, CardContent, CardHeader } from '../ui/card';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/workspace` (accounts §1/§2): the current workspace at a glance — its name (admins rename it), the
 * caller's role, the seats — and the way to its members, groups and security settings.
 */
export default function WorkspacePage() {
  return (
    <RequireSignIn>
      <WorkspaceOverview />
    </RequireSignIn>
  );
}

function WorkspaceOverview() {
  const summary = useWorkspaceSummary();
  const workspace = summary.data;
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <WorkspacePageHeader
        title="Workspace"
        description={
          workspace ? (
            <p>
              <strong className="font-medium text-fg">{workspace.name}</strong> · you are{' '}
              {workspace.is_owner
                ? 'its owner'
                : `${workspace.role === 'member' ? 'a' : 'an'} ${workspaceRoleLabels[workspace.role].toLowerCase()}`}
            </p>
          ) : (
            <p>The people you work with, and the rules you share.</p>
          )
        }
      />
      {summary.isPending ? (
        <Skeleton className="h-32 w-full rounded-xl" />
      ) : summary.isError ? (
        <LoadError error={summary.error} onRetry={() => void summary.refetch()} />
      ) : (
        <WorkspaceNameCard key={summary.data.workspace_id} workspace={summary.data} />
      )}
      <div className="grid gap-4 md:grid-cols-3">
        <OverviewLink
          to="/app/workspace/members"
          title="Members"
          text={
            workspace
              ? `${describeSeats(workspace.seats_used, workspace.max_seats)}. Invite people, set their roles.`
              : 'Invite people and set their roles.'
          }
        />
        <OverviewLink
          to="/app/workspace/groups"
          title="Groups"
          text="Gather members to share voices with all of them at once."
        />
        <OverviewLink
          to="/app/workspace/security"
          title="Security"
          text="Session inactivity timeout and data training."
        />
      </div>
      <p className="text-sm text-fg-muted">
        Invited to another workspace?{' '}
        <Link
          to="/app/settings/workspace-invites"
          className="font-medium text-fg underline-offset-2 hover:underline"
        >
          See your invitations
        </Link>
      </p>
    </div>
  );
}

function OverviewLink({ to, title, text }: { to: string; title: string; text: string }) {
  return (
    <Link
      to={to}
      className="group flex flex-col gap-1 rounded-xl border border-line bg-surface p-5 shadow-xs transition-colors hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <span className="flex items-center justify-between text-base font-semibold">
        {title}
        <span aria-hidden="true" className="text-fg-muted transition-transform group-hover:translate-x-0.5">
          →
        </span>
      </span>
      <span className="text-sm text-fg-muted">{text}</span>
    </Link>
  );
}

/** The workspace's name; admins (and editors) rename it. */
function WorkspaceNameCard({ workspace }: { workspace: WorkspaceSummary }) {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const rename = useMutation({
    mutationFn: (next: string) => updateWorkspaceSettings({ name: next }),
    onSuccess: (updated) => {
      queryClient.setQueryData(workspaceQueryKeys.summary, updated);
      void invalidateWorkspace(queryClient);
      void queryClient.invalidateQueries({ queryKey: workspaceQueryKeys.userWorkspaces });
      toast({ title: `The workspace is now called ${updated.name}`, variant: 'success' });
    },
  });

  return (
    <Card>
      <CardHeader>
        <div>
          <h2 className="text-base font-semibold">Name</h2>
          <p className="mt-1 text-sm text-fg-muted">
            Members see it in the workspace switcher and in invitations.
          </p>
        </div>
      </CardHeader>
      <CardContent>
        {hasAdminRights(workspace.role) ? (
          <NameForm
            label="Workspace name"
            fieldName="workspace-name"
            initial={workspace.name}
            emptyMessage="Enter a workspace name."
            submitLabel="Save"
            variant="secondary"
            save={rename.mutateAsync}
          />
        ) : (
          <p className="text-sm">
            {workspace.name}
            <span className="text-fg-muted"> · only workspace admins can rename it</span>
          </p>
        )}
      </CardContent>
    </Card>
  );
}
