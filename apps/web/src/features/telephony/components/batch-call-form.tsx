import type { PhoneNumberResponse } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { FormMessage, inputClasses, TextField } from '../../../ui/field';
import { getUserQueryOptions } from '../../users';
import { useAgreeToBatchTerms } from '../api/agree-to-batch-terms';
import { useSubmitBatchCall } from '../api/submit-batch-call';
import { type CsvReading, readRecipientsCsv } from '../recipients-csv';

/**
 * A new batch call: its name, the agent, the Twilio number it calls from, the recipients from a CSV
 * (phone_number and dynamic variables) and when to start.
 */
export function BatchCallForm(props: {
  agents: { id: string; name: string }[];
  numbers: PhoneNumberResponse[];
  onSubmitted: (batchId: string, name: string) => void;
}) {
  const { agents, numbers, onSubmitted } = props;
  const id = useId();
  const twilioNumbers = numbers.filter((n) => n.provider === 'twilio' && n.supports_outbound);
  const [name, setName] = useState('');
  const [agentId, setAgentId] = useState(agents[0]?.id ?? '');
  const [numberId, setNumberId] = useState(twilioNumbers[0]?.phone_number_id ?? '');
  const [when, setWhen] = useState('');
  const [csv, setCsv] = useState<(CsvReading & { file: string }) | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = useSubmitBatchCall();
  const user = useQuery(getUserQueryOptions());
  const agree = useAgreeToBatchTerms();
  // accounts §3 terms_agreed_to.batch_calling: asked once, before the user's first batch.
  const agreed = user.data?.terms_agreed_to.batch_calling_unix != null;
  const [consents, setConsents] = useState(false);

  const handleFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > 2 * 1024 * 1024) {
      setCsv({
        file: file.name,
        recipients: [],
        problems: ['The file is over 2 MB; a batch calls at most 5,000 numbers.'],
      });
      return;
    }
    setCsv({ file: file.name, ...readRecipientsCsv(await file.text()) });
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (submit.isPending) return;
    let found: string | null = null;
    if (!name.trim()) found = 'Give the batch a name.';
    else if (!agentId) found = 'Choose the agent that speaks.';
    else if (!numberId) found = 'Choose the Twilio number to call from.';
    else if (csv && csv.problems.length > 0) found = 'Correct the CSV file first.';
    else if (!agreed && !consents) found = 'Confirm that the people you call agreed to be called.';
    else if (!csv || csv.recipients.length === 0) found = 'Choose a CSV file of recipients.';
    setProblem(found);
    if (found || !csv) return;
    const scheduled = when ? Math.floor(new Date(when).getTime() / 1000) : undefined;
    const send = () =>
      submit.mutate(
        {
          call_name: name.trim(),
          agent_id: agentId,
          agent_phone_number_id: numberId,
          recipients: csv.recipients,
          ...(scheduled && Number.isFinite(scheduled) ? { scheduled_time_unix: scheduled } : {}),
          timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        },
        { onSuccess: (batch) => onSubmitted(batch.id, batch.name) },
      );
    if (agreed) send();
    else agree.mutate(undefined, { onSuccess: send });
  };

  if (twilioNumbers.length === 0 || agents.length === 0)
    return (
      <div className="flex flex-col gap-2 rounded-xl border border-dashed border-line px-6 py-8 text-center">
        <h3 className="text-base font-semibold">Nothing to call with yet</h3>
        <p className="mx-auto max-w-md text-sm text-fg-muted">
          {agents.length === 0
            ? 'Create an agent first: it is who speaks on the calls.'
            : 'Import a Twilio number on the Phone numbers page first: batch calls go out from it.'}
        </p>
      </div>
    );

  return (
    <form
      onSubmit={handleSubmit}
      noValidate
      aria-label="New batch call"
      className="grid gap-4 rounded-xl border border-line bg-surface p-4 sm:grid-cols-2 sm:p-5"
    >
      <TextField label="Name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      <label className="flex flex-col gap-1.5 text-sm font-medium" htmlFor={`${id}-agent`}>
        Agent
        <select
          id={`${id}-agent`}
          className={inputClasses}
          value={agentId}
          onChange={(e) => setAgentId(e.target.value)}
        >
          {agents.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1.5 text-sm font-medium" htmlFor={`${id}-number`}>
        Call from
        <select
          id={`${id}-number`}
          className={inputClasses}
          value={numberId}
          onChange={(e) => setNumberId(e.target.value)}
        >
          {twilioNumbers.map((number) => (
            <option key={number.phone_number_id} value={number.phone_number_id}>
              {number.label} ({number.phone_number})
            </option>
          ))}
        </select>
      </label>
      <TextField
        label="Start (empty: now)"
        type="datetime-local"
        value={when}
        onChange={(e) => setWhen(e.target.value)}
      />
      <div className="flex flex-col gap-1.5 sm:col-span-2">
        <label htmlFor={`${id}-csv`} className="text-sm font-medium">
          Recipients (CSV)
        </label>
        <input
          id={`${id}-csv`}
          type="file"
          accept=".csv,text/csv"
          aria-describedby={`${id}-csv-note`}
          className="text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-subtle file:px-3 file:py-1.5 file:text-sm file:font-medium"
          onChange={(e) => void handleFile(e.target.files?.[0])}
        />
        <p id={`${id}-csv-note`} className="text-xs text-fg-muted">
          A header row with a <span className="font-mono">phone_number</span> column (E.164, e.g.
          +14155550123); other columns become the conversation’s dynamic variables.
        </p>
        {csv && csv.problems.length === 0 && (
          <p className="text-sm" role="status">
            {csv.recipients.length.toLocaleString('en-US')} recipients from {csv.file}
          </p>
        )}
        {csv && csv.problems.length > 0 && (
          <ul aria-label="Problems in the CSV" className="list-disc pl-5 text-sm text-danger">
            {csv.problems.slice(0, 10).map((p) => (
              <li key={p}>{p}</li>
            ))}
            {csv.problems.length > 10 && <li>…and {csv.problems.length - 10} more.</li>}
          </ul>
        )}
      </div>
      {!agreed && (
        <label className="flex items-start gap-2 text-sm sm:col-span-2">
          <input
            type="checkbox"
            className="mt-0.5 size-4"
            checked={consents}
            onChange={(e) => setConsents(e.target.checked)}
          />
          <span>
            The people on this list agreed to be called by an AI agent, and the calls follow the laws where
            they live (calling hours, do-not-call lists).
          </span>
        </label>
      )}
      {(problem || submit.error || agree.error) && (
        <div className="sm:col-span-2">
          <FormMessage>{problem ?? getToastMessage(submit.error ?? agree.error)}</FormMessage>
        </div>
      )}
      <div className="flex justify-end sm:col-span-2">
        <Button type="submit" disabled={submit.isPending || agree.isPending}>
          {submit.isPending || agree.isPending ? 'Submitting…' : 'Submit batch'}
        </Button>
      </div>
    </form>
  );
}
