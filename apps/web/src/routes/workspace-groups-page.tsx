import { hasAdminRights } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { createWorkspaceGroup } from '../features/workspace/api/create-workspace-group';
import { useWorkspaceSummary } from '../features/workspace/api/get-workspace';
import { useWorkspaceGroups } from '../features/workspace/api/list-workspace-groups';
import { useWorkspaceMembers } from '../features/workspace/api/list-workspace-members';
import { invalidateWorkspace } from '../features/workspace/api/workspace-query-keys';
import { GroupCard } from '../features/workspace/components/group-card';
import { NameForm } from '../features/workspace/components/name-form';
import { WorkspacePageHeader } from '../features/workspace/components/workspace-nav';
import { useToast } from '../lib/toasts/use-toast';
import { Card, CardContent } from '../ui/card';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/workspace/groups` (accounts §1, history/voices §7): groups of members to share voices and items with
 * at once. Admins (and editors) create and delete groups and change who is in them; members read.
 */
export default function WorkspaceGroupsPage() {
  return (
    <RequireSignIn>
      <WorkspaceGroups />
    </RequireSignIn>
  );
}

function WorkspaceGroups() {
  const summary = useWorkspaceSummary();
  const groups = useWorkspaceGroups();
  const members = useWorkspaceMembers();
  const canManage = hasAdminRights(summary.data?.role);

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <WorkspacePageHeader
        title="Groups"
        description={
          <p>Gather members into groups to share voices and generations with all of them at once.</p>
        }
      />
      {summary.data && !canManage && (
        <p className="rounded-lg border border-line bg-subtle px-4 py-3 text-sm text-fg-muted" role="note">
          Only workspace admins can create groups or change who is in them.
        </p>
      )}
      {canManage && <CreateGroupForm />}

      {groups.isPending ? (
        <div className="grid gap-4 md:grid-cols-2" aria-busy="true">
          <Skeleton className="h-40 w-full rounded-xl" />
          <Skeleton className="h-40 w-full rounded-xl" />
        </div>
      ) : groups.isError ? (
        <LoadError error={groups.error} onRetry={() => void groups.refetch()} />
      ) : groups.data.length === 0 ? (
        <Card>
          <div className="flex flex-col items-center gap-2 px-5 py-12 text-center">
            <p className="font-medium">No groups yet</p>
            <p className="max-w-sm text-sm text-fg-muted">
              {canManage
                ? 'Create a group above, then add members to it.'
                : 'An admin of the workspace can create groups.'}
            </p>
          </div>
        </Card>
      ) : (
        <div className="grid items-start gap-4 md:grid-cols-2">
          {groups.data.map((group) => (
            <GroupCard key={group.id} group={group} members={members.data ?? []} canManage={canManage} />
          ))}
        </div>
      )}
      {members.isError && <LoadError error={members.error} onRetry={() => void members.refetch()} />}
    </div>
  );
}

/** Makes a group by name. */
function CreateGroupForm() {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const create = useMutation({
    mutationFn: createWorkspaceGroup,
    onSuccess: (group) => {
      toast({ title: `${group.name} was created`, variant: 'success' });
      void invalidateWorkspace(queryClient);
    },
  });
  return (
    <Card>
      <CardContent>
        <NameForm
          label="Group name"
          fieldName="group-name"
          emptyMessage="Enter a group name."
          submitLabel="Create group"
          clearOnSuccess
          save={create.mutateAsync}
        />
      </CardContent>
    </Card>
  );
}
