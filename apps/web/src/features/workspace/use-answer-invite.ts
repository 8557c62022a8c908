import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useToast } from '../../lib/toasts/use-toast';
import { acceptWorkspaceInvite } from './api/accept-workspace-invite';
import { declineWorkspaceInvite } from './api/decline-workspace-invite';
import { getWorkspace } from './api/get-workspace';
import { workspaceQueryKeys } from './api/workspace-query-keys';
import { useEnterWorkspace } from './use-enter-workspace';

/** The invitation to answer: the code from the mailed link, or the id of one listed for the caller. */
export type InviteAnswer = { invite_code: string } | { invite_id: string };

/** Where an accepted invitation leads. */
export const afterJoinPath = '/app/workspace/members';

/** "You joined Acme", or "You joined the workspace" when its name is unknown. */
export function joinedMessage(workspaceName: string | undefined): string {
  return workspaceName ? `You joined ${workspaceName}` : 'You joined the workspace';
}

/**
 * Accepting and declining an invitation (accounts §4). Accepting joins the workspace and makes it the current
 * one: the access token is refreshed, every cached answer dropped, a toast names the workspace and the
 * members page opens. Errors (an expired or withdrawn invitation) are the caller's to show.
 */
export function useAnswerInvite() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { toast } = useToast();
  const enterWorkspace = useEnterWorkspace();

  const accept = useMutation({
    mutationFn: async ({ answer, workspaceName }: { answer: InviteAnswer; workspaceName?: string }) => {
      await acceptWorkspaceInvite(answer);
      // Joined already: a failed refresh must not read as a failed accept (a retry would find the invitation used).
      const entered = await enterWorkspace().then(
        () => true,
        () => false,
      );
      if (!entered) {
        window.location.assign(afterJoinPath);
        return { name: workspaceName };
      }
      // The new token names the joined workspace, so its summary says its name.
      const name =
        workspaceName ??
        (await getWorkspace().then(
          (w) => w.name,
          () => undefined,
        ));
      return { name };
    },
    onSuccess: ({ name }) => {
      toast({ title: joinedMessage(name), variant: 'success' });
      void navigate(afterJoinPath);
    },
  });

  const decline = useMutation({
    mutationFn: (answer: InviteAnswer) => declineWorkspaceInvite(answer),
    onSuccess: () => {
      toast({ title: 'Invitation declined', variant: 'success' });
      void queryClient.invalidateQueries({ queryKey: workspaceQueryKeys.receivedInvites });
    },
  });

  return { accept, decline };
}
