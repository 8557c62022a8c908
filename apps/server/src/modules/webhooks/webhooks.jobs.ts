import { z } from 'zod';
import { webhookAutoDisabled } from '../../platform/events/catalog';
import { newId } from '../../platform/ids';
import { defineJob } from '../../platform/jobs/job-definition';
import { openSecret } from '../../platform/secrets';
import { workspaceAdminIds } from '../workspaces';
import { postSignedEvent } from './webhook-delivery';
import { sealingKeyOf, type WebhookDeps } from './webhooks.context';
import {
  getWebhook,
  insertDeliveryAttempt,
  noteAttemptFailed,
  noteDeliveryFailed,
  noteDeliverySucceeded,
} from './webhooks.store';

const DeliveryPayload = z.object({
  webhookId: z.string(),
  /** The event sent to this webhook: every attempt of it shares it (the log groups them). */
  deliveryId: z.string(),
  eventType: z.string(),
  /** The JSON body, as sent (it is signed afresh at each attempt, with that attempt's time). */
  body: z.record(z.string(), z.unknown()),
  attempt: z.number().int().min(1),
});
export type DeliveryPayload = z.infer<typeof DeliveryPayload>;

/**
 * One attempt to deliver one event to one webhook (docs/decisions/0011-webhook-delivery.md). A failure
 * worth retrying (5xx, 429, network, time limit) schedules the next attempt as a new job after
 * WEBHOOK_RETRY_DELAYS_SECONDS; when the delays are spent, or a 4xx answers, the delivery has failed and
 * counts towards the switch-off. The job's own retries (3) only cover this server's failures (its
 * database), never the receiver's.
 */
export const deliverWebhookJob = defineJob<DeliveryPayload, WebhookDeps>({
  name: 'webhooks.deliver',
  payload: DeliveryPayload,
  maxAttempts: 3,
  backoffBaseMs: 5000,
  async handler(payload, ctx, deps) {
    return attemptDelivery(deps, payload, ctx.signal);
  },
});

/** Runs one attempt and writes its outcome (log, counters, next attempt, switch-off) in one transaction. */
export async function attemptDelivery(deps: WebhookDeps, payload: DeliveryPayload, signal?: AbortSignal) {
  const webhook = await getWebhook(deps.db, payload.webhookId);
  // Deleted or switched off since: the delivery ends quietly (enabling it again does not replay it).
  if (!webhook || webhook.disabledAt || webhook.autoDisabledAt) return { skipped: true };
  if (signal?.aborted) throw new Error('the worker is stopping');
  const result = await postSignedEvent({
    url: webhook.url,
    body: JSON.stringify(payload.body),
    secret: openSecret(webhook.secretSealed, await sealingKeyOf(deps)),
    headers: webhook.requestHeaders,
    timeoutMs: deps.settings.timeoutMs,
    allowPrivate: deps.settings.allowPrivateUrls,
    now: () => deps.clock.now(),
  });
  const delays = deps.settings.retryDelaysMs;
  const retry =
    !result.ok && result.retryable && webhook.retryEnabled && payload.attempt <= delays.length
      ? (delays[payload.attempt - 1] ?? 0)
      : undefined;
  const now = deps.clock.now();
  await deps.events.transaction(async (tx, events) => {
    await insertDeliveryAttempt(tx, {
      id: newId(),
      webhookId: webhook.id,
      deliveryId: payload.deliveryId,
      eventType: payload.eventType,
      attempt: payload.attempt,
      outcome: result.ok ? 'succeeded' : retry !== undefined ? 'retrying' : 'failed',
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
      createdAt: now,
    });
    if (result.ok) {
      await noteDeliverySucceeded(tx, webhook.id);
      return;
    }
    await noteAttemptFailed(tx, webhook.id, result.statusCode, now);
    if (retry !== undefined) {
      await deps.queue.enqueueIn(
        tx,
        deliverWebhookJob,
        { ...payload, attempt: payload.attempt + 1 },
        { workspaceId: webhook.workspaceId, runAt: new Date(Date.now() + retry) },
      );
      return;
    }
    const failed = await noteDeliveryFailed(tx, webhook.id, deps.settings.autoDisableAfter, now);
    if (failed?.autoDisabled) {
      deps.logger.warn(
        { webhookId: webhook.id, failures: failed.failures },
        'a webhook was switched off after failed deliveries',
      );
      await events.publish(webhookAutoDisabled, {
        workspaceId: webhook.workspaceId,
        webhookId: webhook.id,
        name: webhook.name,
        failures: failed.failures,
        adminIds: await workspaceAdminIds(tx, webhook.workspaceId),
      });
    }
  });
  if (!result.ok) {
    deps.logger.info(
      {
        webhookId: webhook.id,
        attempt: payload.attempt,
        statusCode: result.statusCode,
        retry: retry !== undefined,
      },
      `a webhook delivery failed: ${result.error}`,
    );
  }
  return { ok: result.ok, statusCode: result.statusCode, retryInMs: retry ?? null };
}
