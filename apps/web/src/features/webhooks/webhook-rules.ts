import type { WebhookDeliveryResponse, WorkspaceWebhookResponse } from '@parla/contracts';
import type { BadgeTone } from '../../ui/badge';

/** What the list says about a webhook's state (issue 19 item 5): on, switched off by an admin or by the server. */
export interface WebhookStatus {
  label: 'Active' | 'Disabled' | 'Auto-disabled';
  tone: BadgeTone;
}

export function webhookStatusOf(
  webhook: Pick<WorkspaceWebhookResponse, 'is_disabled' | 'is_auto_disabled'>,
): WebhookStatus {
  if (webhook.is_disabled) return { label: 'Disabled', tone: 'neutral' };
  if (webhook.is_auto_disabled) return { label: 'Auto-disabled', tone: 'danger' };
  return { label: 'Active', tone: 'success' };
}

/** The last failure in words, e.g. "Last failure: HTTP 503" ("no answer" when none came). */
export function lastFailureOf(
  webhook: Pick<WorkspaceWebhookResponse, 'most_recent_failure_error_code' | 'most_recent_failure_timestamp'>,
): string | undefined {
  if (webhook.most_recent_failure_timestamp === undefined) return undefined;
  return webhook.most_recent_failure_error_code === undefined
    ? 'no answer'
    : `HTTP ${webhook.most_recent_failure_error_code}`;
}

/** "1 failed delivery", "10 failed deliveries". */
export function failedDeliveries(count: number): string {
  return `${count.toLocaleString('en-US')} failed ${count === 1 ? 'delivery' : 'deliveries'}`;
}

/** An attempt's outcome as the log shows it. */
export function deliveryOutcomeOf(delivery: Pick<WebhookDeliveryResponse, 'status'>): {
  label: string;
  tone: BadgeTone;
} {
  if (delivery.status === 'succeeded') return { label: 'Delivered', tone: 'success' };
  if (delivery.status === 'retrying') return { label: 'Will retry', tone: 'warning' };
  return { label: 'Failed', tone: 'danger' };
}

/** Checks the form's fields before sending: a name, and an http(s) address. Answers the problems by field. */
export function checkWebhookForm(input: { name: string; url: string }): { name?: string; url?: string } {
  const problems: { name?: string; url?: string } = {};
  if (!input.name.trim()) problems.name = 'Give the webhook a name.';
  else if (input.name.trim().length > 100) problems.name = 'At most 100 characters.';
  const url = input.url.trim();
  if (!url) problems.url = 'Enter the address to call.';
  else {
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
        problems.url = 'The address starts with https://.';
    } catch {
      problems.url = 'Enter a full address, e.g. https://example.com/hooks/parla.';
    }
  }
  return problems;
}
