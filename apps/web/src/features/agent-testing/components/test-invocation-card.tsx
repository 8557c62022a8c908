import type { TestInvocationSummary, TestRunResponse, TestRunStatus } from '@parla/contracts';
import { useState } from 'react';
import { useToast } from '../../../lib/toasts/use-toast';
import { Badge, type BadgeTone } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { LoadError } from '../../../ui/load-error';
import { Skeleton } from '../../../ui/skeleton';
import { useCancelInvocation, useResubmitRuns, useTestInvocation } from '../api/test-invocations';

const STATUS: Record<TestRunStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Waiting', tone: 'neutral' },
  running: { label: 'Running', tone: 'accent' },
  passed: { label: 'Passed', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  cancelled: { label: 'Cancelled', tone: 'warning' },
};

export function StatusBadge({ status }: { status: TestRunStatus }) {
  const { label, tone } = STATUS[status];
  return (
    <Badge tone={tone} dot>
      {label}
    </Badge>
  );
}

const unfinished = (status: TestRunStatus) => status === 'pending' || status === 'running';

/** One run's verdict: the agent's answer, its tool calls, and why it passed or failed. */
function RunResult({ run }: { run: TestRunResponse }) {
  const answer = run.agent_responses[0];
  return (
    <li className="flex flex-col gap-2 px-4 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="min-w-0 flex-1 truncate text-sm font-medium">{run.test_name}</h4>
        <StatusBadge status={run.status} />
      </div>
      {run.condition_result && (
        <div className="flex flex-col gap-1 text-sm">
          <p>
            <span className="font-medium">Why: </span>
            {run.condition_result.rationale.summary}
          </p>
          {run.condition_result.rationale.messages.length > 0 && (
            <ul className="list-disc pl-5 text-xs text-fg-muted">
              {run.condition_result.rationale.messages.map((message, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the judge's notes, in order, may repeat.
                <li key={i}>{message}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {answer && (answer.message || answer.tool_calls.length > 0) && (
        <div className="rounded-lg bg-subtle px-3 py-2 text-sm">
          <p className="text-xs font-medium text-fg-muted">
            The agent answered{run.response_mode === 'knowledge_base' ? ' (knowledge-base mode)' : ''}
          </p>
          {answer.message && <p className="whitespace-pre-wrap break-words">{answer.message}</p>}
          {answer.tool_calls.map((call) => (
            <p key={call.request_id} className="break-all font-mono text-xs">
              {call.tool_name}({call.params_as_json})
            </p>
          ))}
        </div>
      )}
    </li>
  );
}

/** An invocation of the list: its counts, and once opened, each run's verdict; cancel and run again. */
export function TestInvocationCard({
  invocation,
  agentName,
}: {
  invocation: TestInvocationSummary;
  agentName: string;
}) {
  const [open, setOpen] = useState(false);
  const detail = useTestInvocation(invocation.id, open);
  const cancel = useCancelInvocation();
  const resubmit = useResubmitRuns();
  const { toast, toastError } = useToast();
  const runs = detail.data?.test_runs ?? [];
  const finished = runs.filter((r) => !unfinished(r.status));
  const running = unfinished(invocation.status) || runs.some((r) => unfinished(r.status));
  const created = new Date(invocation.created_at_unix_secs * 1000);

  return (
    <li className="flex flex-col">
      <details
        className="group"
        open={open}
        onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
      >
        <summary className="flex cursor-pointer flex-wrap items-center gap-3 rounded-lg px-4 py-3 outline-none focus-visible:outline-2 focus-visible:outline-ring">
          <div className="flex min-w-0 flex-[1_1_14rem] flex-col gap-0.5">
            <span className="truncate text-sm font-medium">{invocation.title}</span>
            <span className="text-xs text-fg-muted">
              {agentName} · <time dateTime={created.toISOString()}>{created.toLocaleString()}</time> ·{' '}
              {invocation.passed_count} passed, {invocation.failed_count} failed
              {invocation.pending_count > 0 ? `, ${invocation.pending_count} to go` : ''}
            </span>
          </div>
          <StatusBadge status={invocation.status} />
        </summary>
        <div className="flex flex-col gap-2 border-t border-line pb-3">
          {detail.isPending ? (
            <div role="status" aria-label="Loading the results" className="flex flex-col gap-2 p-4">
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-4 w-2/3" />
            </div>
          ) : detail.isError ? (
            <LoadError className="p-4" error={detail.error} onRetry={() => void detail.refetch()} />
          ) : (
            <ul aria-label={`Results of ${invocation.title}`} className="flex flex-col divide-y divide-line">
              {runs.map((run) => (
                <RunResult key={run.test_run_id} run={run} />
              ))}
            </ul>
          )}
          <div className="flex flex-wrap justify-end gap-2 px-4">
            {running && (
              <Button
                variant="secondary"
                size="sm"
                disabled={cancel.isPending}
                onClick={() =>
                  cancel.mutate(invocation.id, {
                    onSuccess: () => {
                      void detail.refetch();
                      toast({ title: 'Runs cancelled', variant: 'success' });
                    },
                    onError: toastError,
                  })
                }
              >
                Cancel runs
              </Button>
            )}
            {open && finished.length > 0 && (
              <Button
                variant="secondary"
                size="sm"
                disabled={resubmit.isPending}
                onClick={() =>
                  resubmit.mutate(
                    {
                      invocationId: invocation.id,
                      agentId: invocation.agent_id,
                      runIds: finished.map((r) => r.test_run_id),
                    },
                    { onSuccess: () => void detail.refetch(), onError: toastError },
                  )
                }
              >
                Run again
              </Button>
            )}
          </div>
        </div>
      </details>
    </li>
  );
}
