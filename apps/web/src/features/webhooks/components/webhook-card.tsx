import { WEBHOOK_EVENT_LABELS, type WorkspaceWebhookResponse } from '@parla/contracts';
import { useId, useState } from 'react';
import { formatDate } from '../../../lib/format-date';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { useTestWebhook } from '../api/test-webhook';
import { useUpdateWebhook } from '../api/update-webhook';
import { failedDeliveries, lastFailureOf, webhookStatusOf } from '../webhook-rules';
import { WebhookDeliveries } from './webhook-deliveries';

export interface WebhookCardProps {
  webhook: WorkspaceWebhookResponse;
  /** The caller may change it (workspace admins); members only read. */
  canManage: boolean;
  onEdit: (webhook: WorkspaceWebhookResponse) => void;
  onDelete: (webhook: WorkspaceWebhookResponse) => void;
}

/** One webhook: its state, address and events, its actions, the last test's result and its log. */
export function WebhookCard({ webhook, canManage, onEdit, onDelete }: WebhookCardProps) {
  const { toast, toastError } = useToast();
  const status = webhookStatusOf(webhook);
  const failure = lastFailureOf(webhook);
  const failedAt = webhook.most_recent_failure_timestamp
    ? formatDate(webhook.most_recent_failure_timestamp * 1000)
    : undefined;
  const update = useUpdateWebhook();
  const test = useTestWebhook();
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string }>();
  const [logOpen, setLogOpen] = useState(false);
  const logId = useId();
  const off = webhook.is_disabled || webhook.is_auto_disabled;

  const sendTest = () => {
    if (test.isPending) return;
    setTestResult(undefined);
    test.mutate(webhook.webhook_id, {
      onSuccess: (result) =>
        setTestResult(
          result.success
            ? { ok: true, text: `Test delivered: HTTP ${result.status_code} in ${result.duration_ms} ms.` }
            : { ok: false, text: `Test failed: ${result.error ?? 'no answer'}` },
        ),
      onError: (caught) => setTestResult({ ok: false, text: getToastMessage(caught) }),
    });
  };

  const switchOnOff = () => {
    if (update.isPending) return;
    update.mutate(
      { webhookId: webhook.webhook_id, body: { is_disabled: !off } },
      {
        onSuccess: () =>
          toast({
            title: off ? `“${webhook.name}” is on again.` : `“${webhook.name}” is off.`,
            variant: 'success',
          }),
        onError: toastError,
      },
    );
  };

  return (
    <li className="flex min-w-0 flex-col rounded-xl border border-line bg-surface shadow-xs">
      <div className="flex flex-col gap-3 p-4 sm:p-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex min-w-0 flex-col gap-1">
            <h3 className="flex flex-wrap items-center gap-2 font-semibold">
              <span className="break-words">{webhook.name}</span>
              <Badge tone={status.tone} dot>
                {status.label}
              </Badge>
            </h3>
            <p className="font-mono text-sm break-all text-fg-muted">{webhook.webhook_url}</p>
          </div>
          {canManage && (
            <div className="flex flex-wrap gap-1">
              <Button size="sm" variant="secondary" onClick={sendTest} aria-disabled={test.isPending}>
                {test.isPending ? 'Sending…' : 'Send test'}
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => onEdit(webhook)}
                aria-label={`Edit ${webhook.name}`}
              >
                Edit
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={switchOnOff}
                aria-disabled={update.isPending}
                aria-label={`${off ? 'Enable' : 'Disable'} ${webhook.name}`}
              >
                {off ? 'Enable' : 'Disable'}
              </Button>
              <Button
                size="sm"
                variant="ghost"
                className="text-danger"
                onClick={() => onDelete(webhook)}
                aria-label={`Delete ${webhook.name}`}
              >
                Delete
              </Button>
            </div>
          )}
        </div>

        {webhook.is_auto_disabled && !webhook.is_disabled && (
          <p className="rounded-lg bg-danger-soft px-3 py-2 text-sm text-danger" role="note">
            {`Turned off after ${failedDeliveries(webhook.consecutive_failures)} in a row`}
            {failure && ` (last: ${failure}${failedAt ? `, ${failedAt}` : ''})`}. Fix the endpoint, send a
            test, then enable it again.
          </p>
        )}

        <div className="flex flex-wrap items-center gap-1.5 text-xs">
          <span className="text-fg-muted">Events:</span>
          {webhook.events.length === 0 ? (
            <span className="text-fg-muted">none yet — edit it to choose</span>
          ) : (
            webhook.events.map((event) => (
              <Badge key={event} tone="neutral" title={WEBHOOK_EVENT_LABELS[event].description}>
                {WEBHOOK_EVENT_LABELS[event].label}
              </Badge>
            ))
          )}
        </div>

        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-fg-muted">
          <span>Added {formatDate(webhook.created_at_unix * 1000)}</span>
          <span>{webhook.retry_enabled ? 'Retries on' : 'Retries off'}</span>
          {failure && !webhook.is_auto_disabled && (
            <span>
              Last failure: {failure}
              {failedAt ? `, ${failedAt}` : ''}
            </span>
          )}
        </div>

        <div aria-live="polite">
          {testResult && (
            <p
              className={
                testResult.ok
                  ? 'rounded-lg bg-success-soft px-3 py-2 text-sm text-success'
                  : 'rounded-lg bg-danger-soft px-3 py-2 text-sm break-words text-danger'
              }
            >
              {testResult.text}
            </p>
          )}
        </div>

        {canManage && (
          <div>
            <Button
              size="sm"
              variant="ghost"
              aria-expanded={logOpen}
              aria-controls={logId}
              onClick={() => setLogOpen((open) => !open)}
            >
              {logOpen ? 'Hide delivery log' : 'Show delivery log'}
            </Button>
          </div>
        )}
      </div>
      {canManage && logOpen && (
        <div id={logId} className="border-t border-line">
          <WebhookDeliveries webhookId={webhook.webhook_id} name={webhook.name} />
        </div>
      )}
    </li>
  );
}
