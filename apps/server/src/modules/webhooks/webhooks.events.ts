import type { Db } from '../../platform/db/client';
import {
  apiKeyCreated,
  conversationEnded,
  creditsRunningLow,
  generationCompleted,
  generationStarted,
  studioConversionStatus,
  subscriptionChanged,
  subscriptionPaymentFailed,
  transcriptionCompleted,
  transcriptionFailed,
  voiceAdded,
  voiceRemoved,
  workspaceMemberRemoved,
} from '../../platform/events/catalog';
import type { EventBus, EventDefinition } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import type { EventHandlerDeps } from '../../platform/module';
import { deliverWebhookJob } from './webhooks.jobs';
import { listActiveWebhooks } from './webhooks.store';
import type { WebhookRow } from './webhooks.tables';

/**
 * The catalogue's events a webhook can subscribe to, each carrying its workspace. (`user.deleted` names no
 * workspace and `workspace.deleted` takes the webhooks with it, so neither can be delivered.)
 */
const DELIVERED_EVENTS: readonly EventDefinition<{ workspaceId: string }>[] = [
  transcriptionCompleted,
  transcriptionFailed,
  generationStarted,
  generationCompleted,
  voiceAdded,
  voiceRemoved,
  apiKeyCreated,
  workspaceMemberRemoved,
  creditsRunningLow,
  subscriptionChanged,
  subscriptionPaymentFailed,
  conversationEnded,
  studioConversionStatus,
];

/** `userId` → `user_id`, one level deep: the event's fields as the wire names them. */
function snakeKeys(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [
      key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      value,
    ]),
  );
}

/** What each webhook of the workspace gets for one event: the body by webhook. */
export function planDeliveries(
  eventName: string,
  payload: Record<string, unknown> & { workspaceId: string },
  active: readonly WebhookRow[],
  eventTimestamp: number,
): Map<WebhookRow, Record<string, unknown>> {
  const plan = new Map<WebhookRow, Record<string, unknown>>();
  const { webhook: askedFor, webhookId, postCallWebhookId, callbackWebhookId, ...fields } = payload;
  const generic = { type: eventName, event_timestamp: eventTimestamp, data: snakeKeys(fields) };
  for (const row of active) if (row.events.includes(eventName)) plan.set(row, generic);
  // A transcription requested with webhook=true (the public API): the webhooks of speech to text, or the
  // one it named, get it in the public API's form; a failure in ours (the public form has none).
  if (
    askedFor === true &&
    (eventName === transcriptionCompleted.name || eventName === transcriptionFailed.name)
  ) {
    const targets = active.filter((row) =>
      webhookId ? row.id === webhookId : row.events.includes('speech_to_text'),
    );
    for (const row of targets) {
      plan.set(
        row,
        eventName === transcriptionCompleted.name
          ? {
              type: 'speech_to_text_transcription',
              event_timestamp: eventTimestamp,
              data: {
                request_id: payload.requestId,
                webhook_metadata: payload.webhookMetadata ?? null,
                transcription: payload.transcription,
              },
            }
          : generic,
      );
    }
  }
  // An ended conversation: the webhooks of the public post-call event get it in the public API's form —
  // the one the workspace's Conversational AI settings name (`webhooks.post_call_webhook_id`, whatever
  // it subscribes to), else every one subscribed to `post_call_transcription`.
  if (eventName === conversationEnded.name) {
    const targets =
      typeof postCallWebhookId === 'string'
        ? active.filter((r) => r.id === postCallWebhookId)
        : active.filter((r) => r.events.includes('post_call_transcription'));
    for (const row of targets)
      plan.set(row, {
        type: 'post_call_transcription',
        event_timestamp: eventTimestamp,
        data: payload.conversation,
      });
  }
  // A Studio conversion whose project names a callback_url: the webhook at that address gets the public
  // API's body (BodyCreateStudioProjectV1StudioProjectsPost's callback_url), signed with its secret.
  if (eventName === studioConversionStatus.name && typeof callbackWebhookId === 'string') {
    const chapter = typeof payload.chapterId === 'string';
    for (const row of active.filter((r) => r.id === callbackWebhookId))
      plan.set(row, {
        type: chapter ? 'chapter_conversion_status' : 'project_conversion_status',
        event_timestamp: eventTimestamp,
        data: {
          request_id: payload.requestId,
          project_id: payload.projectId,
          ...(chapter
            ? { chapter_id: payload.chapterId, chapter_snapshot_id: payload.chapterSnapshotId }
            : { project_snapshot_id: payload.projectSnapshotId }),
          conversion_status: payload.conversionStatus,
          error_details: payload.errorDetails,
        },
      });
  }
  return plan;
}

/**
 * Enqueues one delivery job per webhook the event goes to, with `db`: the publishing transaction, so the
 * jobs exist exactly when what the event says is committed (the bus wakes the worker after the commit).
 */
async function fanOut(
  deps: EventHandlerDeps,
  db: Db,
  eventName: string,
  payload: Record<string, unknown> & { workspaceId: string },
): Promise<void> {
  const active = await listActiveWebhooks(db, payload.workspaceId);
  if (active.length === 0) return;
  const plan = planDeliveries(eventName, payload, active, Math.floor(deps.clock.now().getTime() / 1000));
  for (const [row, body] of plan) {
    await deps.queue.enqueueIn(
      db,
      deliverWebhookJob,
      { webhookId: row.id, deliveryId: newId(), eventType: String(body.type), body, attempt: 1 },
      { workspaceId: row.workspaceId },
    );
  }
}

/**
 * Subscribes the fan-out to every delivered event, in the publishing transaction: one indexed read of the
 * workspace's active webhooks, and delivery jobs only for those that want the event — no job at all for
 * the many events of workspaces without webhooks (a durable handler would be a job per event).
 */
export function subscribeWebhooks(bus: EventBus, deps: EventHandlerDeps): void {
  for (const event of DELIVERED_EVENTS) {
    bus.on(event, 'webhooks.fan-out', (payload, db) => fanOut(deps, db, event.name, payload), {
      inTransaction: true,
    });
  }
}

/** The subscribable names that are catalogue events (all but the public `speech_to_text`). */
export const DELIVERED_EVENT_NAMES: readonly string[] = DELIVERED_EVENTS.map((e) => e.name);
