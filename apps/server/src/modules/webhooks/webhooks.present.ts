import type { WebhookDeliveryResponse, WebhookEventType, WorkspaceWebhookResponse } from '@parla/contracts';
import { toUnixSeconds } from '../../platform/clock';
import type { WebhookDeliveryRow, WebhookRow } from './webhooks.tables';

/** The public API's usage names (`WebhookUsageType`) of the products that send to a webhook. */
function usageOf(events: readonly string[]): { usage_type: string }[] {
  return events.includes('speech_to_text') ? [{ usage_type: 'Speech to Text' }] : [];
}

/** A webhook as the list answers it (never its secret, nor its headers' values). */
export function toWebhookResponse(row: WebhookRow, includeUsages: boolean): WorkspaceWebhookResponse {
  return {
    name: row.name,
    webhook_id: row.id,
    webhook_url: row.url,
    is_disabled: row.disabledAt !== null,
    is_auto_disabled: row.autoDisabledAt !== null,
    created_at_unix: toUnixSeconds(row.createdAt),
    auth_type: 'hmac',
    ...(includeUsages ? { usage: usageOf(row.events) } : {}),
    events: row.events as WebhookEventType[],
    ...(row.lastFailureAt
      ? {
          ...(row.lastFailureCode !== null ? { most_recent_failure_error_code: row.lastFailureCode } : {}),
          most_recent_failure_timestamp: toUnixSeconds(row.lastFailureAt),
        }
      : {}),
    retry_enabled: row.retryEnabled,
    consecutive_failures: row.consecutiveFailures,
    request_header_names: Object.keys(row.requestHeaders),
  };
}

/** One attempt of the log. */
export function toDeliveryResponse(row: WebhookDeliveryRow): WebhookDeliveryResponse {
  return {
    delivery_id: row.deliveryId,
    event_type: row.eventType,
    attempt: row.attempt,
    status: row.outcome as WebhookDeliveryResponse['status'],
    status_code: row.statusCode,
    error: row.error,
    duration_ms: row.durationMs,
    created_at_unix: toUnixSeconds(row.createdAt),
  };
}
