import { type PhoneNumberResponse, SIP_TRUNK_UNSUPPORTED_MESSAGE } from '@parla/contracts';
import { useId, useState } from 'react';
import { AgentsPageHeader } from '../features/agents/components/agents-nav';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useDeletePhoneNumber } from '../features/telephony/api/delete-phone-number';
import { useAgentChoices } from '../features/telephony/api/list-agent-choices';
import { usePhoneNumbers } from '../features/telephony/api/list-phone-numbers';
import { useAssignAgent } from '../features/telephony/api/update-phone-number';
import { ImportNumberDialog } from '../features/telephony/components/import-number-dialog';
import { useToast } from '../lib/toasts/use-toast';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { inputClasses } from '../ui/field';
import { LoadError } from '../ui/load-error';
import { SkeletonRow } from '../ui/skeleton';

/**
 * `/app/conversational-ai/phone-numbers` (issue 28, phone numbers): the workspace's numbers, a Twilio
 * number imported with its SID and token, the agent that answers each, and plainly what works where.
 */
export default function PhoneNumbersPage() {
  return (
    <RequireSignIn>
      <PhoneNumbers />
    </RequireSignIn>
  );
}

function PhoneNumbers() {
  const id = useId();
  const { toast, toastError } = useToast();
  const numbers = usePhoneNumbers();
  const agents = useAgentChoices();
  const assign = useAssignAgent();
  const remove = useDeletePhoneNumber();
  const [importing, setImporting] = useState(false);
  const [toDelete, setToDelete] = useState<PhoneNumberResponse | null>(null);
  const list = numbers.data ?? [];

  const handleAssign = (number: PhoneNumberResponse, agentId: string) => {
    assign.mutate(
      { phoneNumberId: number.phone_number_id, agentId: agentId || null },
      {
        onSuccess: (updated) =>
          toast({
            title: updated.assigned_agent ? 'Agent assigned' : 'Agent removed',
            description: updated.assigned_agent
              ? `${updated.assigned_agent.agent_name} answers ${updated.label}.`
              : `${updated.label} has no agent.`,
            variant: 'success',
          }),
        onError: toastError,
      },
    );
  };

  const handleDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.phone_number_id, {
      onSuccess: () => {
        toast({ title: 'Phone number deleted', description: toDelete.label, variant: 'success' });
        setToDelete(null);
      },
      onError: (error) => {
        setToDelete(null);
        toastError(error);
      },
    });
  };

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <AgentsPageHeader
        title="Phone numbers"
        description="Numbers your agents call from and answer."
        actions={<Button onClick={() => setImporting(true)}>Import Twilio number</Button>}
      />
      <section
        aria-labelledby={`${id}-how`}
        className="flex flex-col gap-2 rounded-xl border border-line bg-subtle px-4 py-3 text-sm sm:px-5"
      >
        <h2 id={`${id}-how`} className="font-semibold">
          What works, and what it needs
        </h2>
        <ul className="flex list-disc flex-col gap-1 pl-5 text-fg-muted">
          <li>
            Twilio numbers place calls through your Twilio account; Twilio then streams the call to this
            server over <span className="font-mono">wss://</span>, so this server must be reachable from the
            internet at its public address. A server without internet access keeps the numbers, but no call
            can go out.
          </li>
          <li>
            Calls that reach your Twilio number come to an agent when your own Twilio webhook asks this server
            for the call’s TwiML (<span className="font-mono">POST /v1/convai/twilio/register-call</span>).
          </li>
          <li>{SIP_TRUNK_UNSUPPORTED_MESSAGE}</li>
        </ul>
      </section>
      <section aria-labelledby={`${id}-list`} className="flex flex-col gap-3">
        <h2 id={`${id}-list`} className="sr-only">
          Numbers
        </h2>
        {numbers.isPending && (
          <ul
            aria-busy="true"
            aria-label="Loading phone numbers"
            className="flex flex-col rounded-xl border border-line"
          >
            <SkeletonRow lineWidths={['w-1/4', 'w-1/3']} />
            <SkeletonRow lineWidths={['w-1/4', 'w-1/3']} />
          </ul>
        )}
        {numbers.isError && <LoadError error={numbers.error} onRetry={() => void numbers.refetch()} />}
        {numbers.isSuccess && list.length === 0 && (
          <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-line px-6 py-12 text-center">
            <h3 className="text-base font-semibold">No phone numbers yet</h3>
            <p className="max-w-md text-sm text-fg-muted">
              Import a number you own in Twilio with its account SID and auth token, then choose the agent
              that answers it.
            </p>
            <Button onClick={() => setImporting(true)}>Import your first number</Button>
          </div>
        )}
        {list.length > 0 && (
          <ul
            aria-label="Phone numbers"
            className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface"
          >
            {list.map((number) => (
              <li
                key={number.phone_number_id}
                className="flex flex-wrap items-center gap-3 px-4 py-3 sm:px-5"
              >
                <div className="flex min-w-0 flex-[1_1_14rem] flex-col gap-0.5">
                  <h3 className="flex flex-wrap items-center gap-2 text-sm font-medium">
                    <span className="truncate">{number.label}</span>
                    <Badge tone={number.provider === 'twilio' ? 'accent' : 'warning'}>
                      {number.provider === 'twilio' ? 'Twilio' : 'SIP trunk · no calls here'}
                    </Badge>
                  </h3>
                  <p className="font-mono text-xs text-fg-muted">{number.phone_number}</p>
                </div>
                <label className="flex min-w-0 flex-[1_1_12rem] flex-col gap-1 text-xs text-fg-muted">
                  Agent
                  <select
                    className={inputClasses}
                    aria-label={`Agent for ${number.label}`}
                    value={number.assigned_agent?.agent_id ?? ''}
                    disabled={assign.isPending || !agents.isSuccess}
                    onChange={(event) => handleAssign(number, event.target.value)}
                  >
                    <option value="">No agent</option>
                    {number.assigned_agent &&
                      !agents.data?.some((agent) => agent.id === number.assigned_agent?.agent_id) && (
                        <option value={number.assigned_agent.agent_id}>
                          {number.assigned_agent.agent_name}
                        </option>
                      )}
                    {(agents.data ?? []).map((agent) => (
                      <option key={agent.id} value={agent.id}>
                        {agent.name}
                      </option>
                    ))}
                  </select>
                </label>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Delete ${number.label}`}
                  onClick={() => setToDelete(number)}
                >
                  Delete
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <ImportNumberDialog
        open={importing}
        onClose={() => setImporting(false)}
        onSaved={(label) => {
          toast({ title: 'Number imported', description: label, variant: 'success' });
          setImporting(false);
        }}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title={toDelete ? `Delete ${toDelete.label}?` : 'Delete number?'}
        description="Its Twilio token is deleted with it. Calls under way go on; batch calls from it stop placing calls."
        confirmLabel="Delete number"
        pending={remove.isPending}
        onConfirm={handleDelete}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}
