import { hasAdminRights, SESSION_INACTIVITY_TIMEOUTS, type WorkspaceSummary } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useToast } from '../../../lib/toasts/use-toast';
import { CommitSelect } from '../../../ui/commit-select';
import { inputClasses } from '../../../ui/field';
import { SpinnerIcon } from '../../../ui/icons';
import { updateWorkspaceSettings } from '../api/update-workspace-settings';
import { workspaceQueryKeys } from '../api/workspace-query-keys';
import { describeInactivityTimeout } from '../workspace-rules';

/** The select's value for "never" (a select holds strings; the API's value is null). */
const NEVER = 'never';

/**
 * The workspace's session inactivity timeout (accounts §3/§4): members are signed out after this long
 * without activity. Saved as soon as it is chosen; only admins (and editors) may change it.
 */
export function SessionTimeoutSetting({ workspace }: { workspace: WorkspaceSummary }) {
  const id = useId();
  const queryClient = useQueryClient();
  const { toast, toastError } = useToast();
  const canChange = hasAdminRights(workspace.role);
  const save = useMutation({
    mutationFn: (timeout: number | null) => updateWorkspaceSettings({ session_inactivity_timeout: timeout }),
    onSuccess: (updated) => {
      queryClient.setQueryData(workspaceQueryKeys.summary, updated);
      toast({
        title:
          updated.session_inactivity_timeout === null
            ? 'Members are no longer signed out for inactivity'
            : `Members are signed out after ${describeInactivityTimeout(updated.session_inactivity_timeout)} without activity`,
        variant: 'success',
      });
      // The user document carries the timeout the app applies (accounts §4).
      void queryClient.invalidateQueries({ queryKey: ['users', 'me'] });
    },
    onError: toastError,
  });
  const current = save.isPending ? save.variables : workspace.session_inactivity_timeout;

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={`${id}-timeout`} className="text-sm font-medium text-fg">
        Session inactivity timeout
      </label>
      <div className="flex items-center gap-3">
        <CommitSelect
          id={`${id}-timeout`}
          className={`${inputClasses} sm:max-w-xs`}
          value={current === null ? NEVER : String(current)}
          disabled={!canChange}
          aria-busy={save.isPending || undefined}
          aria-describedby={`${id}-timeout-note`}
          onCommit={(next) => save.mutate(next === NEVER ? null : Number(next))}
        >
          <option value={NEVER}>Never</option>
          {SESSION_INACTIVITY_TIMEOUTS.map((seconds) => (
            <option key={seconds} value={String(seconds)}>
              {describeInactivityTimeout(seconds)}
            </option>
          ))}
        </CommitSelect>
        {save.isPending && (
          <span role="status" className="flex items-center gap-1.5 text-sm text-fg-muted">
            <SpinnerIcon className="motion-safe:animate-spin" />
            Saving…
          </span>
        )}
      </div>
      <p id={`${id}-timeout-note`} className="text-sm text-fg-muted">
        {canChange
          ? 'Everyone in the workspace is signed out after this long without activity in any tab.'
          : 'Only workspace admins can change this setting. Everyone in the workspace is signed out after this long without activity.'}
      </p>
    </div>
  );
}
