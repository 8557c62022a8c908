import type { BatchCallResponse, BatchRecipientStatus } from '@parla/contracts';
import { useId, useState } from 'react';
import { AgentsPageHeader } from '../features/agents/components/agents-nav';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useCancelBatchCall } from '../features/telephony/api/cancel-batch-call';
import { useBatchCall } from '../features/telephony/api/get-batch-call';
import { useAgentChoices } from '../features/telephony/api/list-agent-choices';
import { useBatchCalls } from '../features/telephony/api/list-batch-calls';
import { usePhoneNumbers } from '../features/telephony/api/list-phone-numbers';
import { BatchCallForm } from '../features/telephony/components/batch-call-form';
import { useToast } from '../lib/toasts/use-toast';
import { Badge, type BadgeTone } from '../ui/badge';
import { Button } from '../ui/button';
import { LoadError } from '../ui/load-error';
import { ProgressBar } from '../ui/progress-bar';
import { SkeletonRow } from '../ui/skeleton';

const STATUS_TONE: Record<BatchCallResponse['status'] | BatchRecipientStatus, BadgeTone> = {
  pending: 'neutral',
  dispatched: 'accent',
  initiated: 'accent',
  in_progress: 'accent',
  completed: 'success',
  failed: 'danger',
  cancelled: 'warning',
  voicemail: 'warning',
};

const statusLabel = (status: string) => status.replace('_', ' ');

/**
 * `/app/conversational-ai/batch-calling` (issue 28, batch calling): a batch from a CSV of recipients,
 * the batches with their progress, and one batch's recipients with the status of each call.
 */
export default function BatchCallingPage() {
  return (
    <RequireSignIn>
      <BatchCalling />
    </RequireSignIn>
  );
}

function BatchCalling() {
  const id = useId();
  const { toast, toastError } = useToast();
  const batches = useBatchCalls();
  const agents = useAgentChoices();
  const numbers = usePhoneNumbers();
  const [selected, setSelected] = useState<string | null>(null);
  const detail = useBatchCall(selected);
  const cancel = useCancelBatchCall();
  const list = batches.data?.batch_calls ?? [];

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <AgentsPageHeader
        title="Batch calling"
        description="Call many numbers with an agent: from your Twilio number, a few at a time, from the time you choose."
      />
      <section aria-labelledby={`${id}-new`} className="flex flex-col gap-3">
        <h2 id={`${id}-new`} className="text-lg font-semibold tracking-tight">
          New batch
        </h2>
        <p className="text-sm text-fg-muted">
          Calls go out through Twilio, at most as many at once as your plan’s concurrent conversations. They
          need this server to be reachable from the internet (Twilio streams each call back to it); without
          that, a batch stays scheduled and its calls fail.
        </p>
        {(agents.isPending || numbers.isPending) && (
          <div aria-busy="true" className="rounded-xl border border-line">
            <SkeletonRow lineWidths={['w-1/3', 'w-1/2']} />
          </div>
        )}
        {agents.isError && <LoadError error={agents.error} onRetry={() => void agents.refetch()} />}
        {numbers.isError && <LoadError error={numbers.error} onRetry={() => void numbers.refetch()} />}
        {agents.isSuccess && numbers.isSuccess && (
          <BatchCallForm
            agents={agents.data}
            numbers={numbers.data}
            onSubmitted={(batchId, name) => {
              toast({ title: 'Batch submitted', description: name, variant: 'success' });
              setSelected(batchId);
            }}
          />
        )}
      </section>
      <section aria-labelledby={`${id}-list`} className="flex flex-col gap-3">
        <h2 id={`${id}-list`} className="text-lg font-semibold tracking-tight">
          Batches
        </h2>
        {batches.isPending && (
          <ul
            aria-busy="true"
            aria-label="Loading batches"
            className="flex flex-col rounded-xl border border-line"
          >
            <SkeletonRow lineWidths={['w-1/4', 'w-1/3']} />
          </ul>
        )}
        {batches.isError && <LoadError error={batches.error} onRetry={() => void batches.refetch()} />}
        {batches.isSuccess && list.length === 0 && (
          <p className="rounded-xl border border-dashed border-line px-6 py-8 text-center text-sm text-fg-muted">
            No batch calls yet. Submit one above.
          </p>
        )}
        {list.length > 0 && (
          <ul
            aria-label="Batches"
            className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface"
          >
            {list.map((batch) => (
              <li key={batch.id} className="flex flex-col gap-2 px-4 py-3 sm:px-5">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="min-w-0 flex-1 truncate text-sm font-medium">{batch.name}</h3>
                  <Badge tone={STATUS_TONE[batch.status]}>{statusLabel(batch.status)}</Badge>
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-label={`Show the calls of ${batch.name}`}
                    aria-pressed={selected === batch.id}
                    onClick={() => setSelected(selected === batch.id ? null : batch.id)}
                  >
                    {selected === batch.id ? 'Hide calls' : 'Show calls'}
                  </Button>
                  {(batch.status === 'pending' || batch.status === 'in_progress') && (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Cancel ${batch.name}`}
                      disabled={cancel.isPending}
                      onClick={() =>
                        cancel.mutate(batch.id, {
                          onSuccess: () => toast({ title: 'Batch cancelled', description: batch.name }),
                          onError: toastError,
                        })
                      }
                    >
                      Cancel
                    </Button>
                  )}
                </div>
                <p className="text-xs text-fg-muted">
                  {batch.agent_name} · {batch.total_calls_finished} of {batch.total_calls_scheduled} calls
                  finished ·{' '}
                  {batch.status === 'pending'
                    ? `starts ${new Date(batch.scheduled_time_unix * 1000).toLocaleString()}`
                    : `${batch.total_calls_dispatched} placed`}
                </p>
                <ProgressBar
                  label={`Progress of ${batch.name}`}
                  value={
                    batch.total_calls_scheduled ? batch.total_calls_finished / batch.total_calls_scheduled : 0
                  }
                />
                {selected === batch.id && (
                  <div className="pt-1">
                    {detail.isPending && <SkeletonRow lineWidths={['w-1/3', 'w-1/4']} />}
                    {detail.isError && (
                      <LoadError error={detail.error} onRetry={() => void detail.refetch()} />
                    )}
                    {detail.data && (
                      <ul aria-label={`Calls of ${batch.name}`} className="flex flex-col gap-1 text-sm">
                        {detail.data.recipients.map((recipient) => (
                          <li key={recipient.id} className="flex flex-wrap items-center gap-2">
                            <span className="font-mono">{recipient.phone_number}</span>
                            <Badge tone={STATUS_TONE[recipient.status]}>
                              {statusLabel(recipient.status)}
                            </Badge>
                            {recipient.error && (
                              <span className="text-xs text-danger">{recipient.error}</span>
                            )}
                          </li>
                        ))}
                      </ul>
                    )}
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
