import { z } from 'zod';
import { defineRoute } from './routes';

/*
 * Workspace webhooks (issue 19 item 5; history/voices §7 "webhooks (hmac …)"; accounts §3 Workspace
 * `speech_to_text_webhook_ids`). The public calls follow the `webhooks` resource of
 * `@elevenlabs/elevenlabs-js` (`WorkspaceWebhookResponseModel`, `WorkspaceCreateWebhookResponseModel`, …);
 * the delivery log and the test delivery are this product's own.
 */

/**
 * What a webhook can subscribe to: the public API's `speech_to_text` (transcriptions requested with
 * `webhook=true`, delivered as `speech_to_text_transcription`) and `post_call_transcription` (each ended
 * conversation with an agent, as the public API's post-call webhook sends it), and the domain events the server publishes
 * today under their own names (`{type, event_timestamp, data}`).
 */
export const WEBHOOK_EVENT_TYPES = [
  'speech_to_text',
  'post_call_transcription',
  'conversation.ended',
  'studio.conversion_status',
  'transcription.completed',
  'transcription.failed',
  'generation.started',
  'generation.completed',
  'voice.added',
  'voice.removed',
  'api_key.created',
  'workspace.member_removed',
  'credits.running_low',
  'subscription.changed',
  'subscription.payment_failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What each subscription means, for the page's checkboxes. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, { label: string; description: string }> = {
  speech_to_text: {
    label: 'Speech to text',
    description: 'Transcripts of requests made with webhook=true, in the public API’s form.',
  },
  post_call_transcription: {
    label: 'Post-call transcription',
    description:
      'Each conversation with an agent once it ended, in the public API’s form: transcript, metadata and analysis.',
  },
  'conversation.ended': {
    label: 'Conversation ended',
    description: 'A conversation with one of the workspace’s agents ended and was kept.',
  },
  'studio.conversion_status': {
    label: 'Studio conversion',
    description: 'A Studio project or chapter finished converting (or failed), with its snapshot.',
  },
  'transcription.completed': {
    label: 'Transcription completed',
    description: 'Every finished transcription of the workspace, with its transcript.',
  },
  'transcription.failed': {
    label: 'Transcription failed',
    description: 'A transcription that could not be finished, with its error.',
  },
  'generation.started': {
    label: 'Generation started',
    description: 'Text to speech, dialogue or voice changer work began.',
  },
  'generation.completed': {
    label: 'Generation completed',
    description: 'Text to speech, dialogue, voice changer or transcription work finished and was charged.',
  },
  'voice.added': {
    label: 'Voice added',
    description: 'A clone, a designed voice or a library voice joined.',
  },
  'voice.removed': { label: 'Voice removed', description: 'One of the workspace’s voices was deleted.' },
  'api_key.created': { label: 'API key created', description: 'A member made an API key.' },
  'workspace.member_removed': {
    label: 'Member removed',
    description: 'A member was removed from the workspace (their API keys for it stop working).',
  },
  'credits.running_low': {
    label: 'Credits running low',
    description: 'The workspace passed 90% of its credits this period.',
  },
  'subscription.changed': {
    label: 'Plan changed',
    description: 'The workspace moved to another plan (an upgrade, a downgrade or the end of a plan).',
  },
  'subscription.payment_failed': {
    label: 'Payment failed',
    description: 'A renewal could not be charged.',
  },
};

/** The `type` of a test delivery (`POST /v1/workspace/webhooks/{id}/test`). */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/** The header deliveries are signed in: `t=<unix>,v0=<hex HMAC-SHA256(secret, t + "." + body)>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'ElevenLabs-Signature';

/** A webhook is switched off by itself after this many deliveries in a row have failed (by default). */
export const WEBHOOK_AUTO_DISABLE_AFTER = 10;

/** The public API's usage names (`WebhookUsageType`) of what we deliver. */
export const WebhookUsage = z.object({ usage_type: z.string() });

const WebhookName = z.string().trim().min(1, 'Give the webhook a name.').max(100, 'At most 100 characters.');
/** Checked further by the server (scheme, address); this is the shape only. */
const WebhookUrl = z
  .string()
  .trim()
  .min(1, 'Enter the address to call.')
  .max(2048, 'At most 2,048 characters.');

/**
 * Extra headers sent with each delivery (the public API's `request_headers`): at most 10, names of
 * token characters, values of visible characters; the server refuses the ones it sets itself.
 */
export const WebhookRequestHeaders = z
  .record(
    z.string(),
    z
      .string()
      .max(1000, 'A header value is at most 1,000 characters.')
      .regex(/^[\t\x20-\x7e]*$/, 'A header value is visible ASCII characters on one line.'),
  )
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > 10) ctx.addIssue({ code: 'custom', message: 'At most 10 headers.' });
    for (const name of names) {
      if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/.test(name)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'A header name is 1 to 100 letters, digits and - _ . characters.',
        });
      }
    }
  });

const WebhookEvents = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((events) => new Set(events).size === events.length, 'Name each event once.');

/** One webhook as the list answers it (`WorkspaceWebhookResponseModel`, plus the fields marked ours). */
export const WorkspaceWebhookResponse = z
  .object({
    name: z.string(),
    webhook_id: z.string(),
    webhook_url: z.string(),
    /** Switched off by an admin. */
    is_disabled: z.boolean(),
    /** Switched off by the server after repeated failed deliveries; enabling it again resets this. */
    is_auto_disabled: z.boolean(),
    created_at_unix: z.number().int(),
    auth_type: z.literal('hmac'),
    /** With `include_usages=true`: the products that send to it. */
    usage: z.array(WebhookUsage).optional(),
    /** The events it is subscribed to. */
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    most_recent_failure_error_code: z.number().int().optional(),
    most_recent_failure_timestamp: z.number().int().optional(),
    /** Ours: failed deliveries are retried (5xx, 429, network errors and time-outs). */
    retry_enabled: z.boolean(),
    /** Ours: deliveries that failed in a row (it is switched off at WEBHOOK_AUTO_DISABLE_AFTER). */
    consecutive_failures: z.number().int(),
    /** Ours: the names of the extra headers sent (their values are not shown again). */
    request_header_names: z.array(z.string()),
  })
  .meta({ id: 'WorkspaceWebhook' });
export type WorkspaceWebhookResponse = z.infer<typeof WorkspaceWebhookResponse>;

export const listWebhooksRoute = defineRoute({
  method: 'GET',
  path: '/v1/workspace/webhooks',
  summary: 'The workspace’s webhooks',
  tags: ['webhooks'],
  query: z.object({
    /** The public API's flag: the products using each webhook (admins only). */
    include_usages: z.enum(['true', 'false']).optional(),
  }),
  response: z.object({ webhooks: z.array(WorkspaceWebhookResponse) }),
});

export const CreateWebhookRequest = z.object({
  settings: z.object({
    auth_type: z.enum(['hmac', 'oauth2', 'mtls']),
    name: WebhookName,
    webhook_url: WebhookUrl,
    request_headers: WebhookRequestHeaders.optional(),
  }),
  /** Ours: the events to subscribe to at once (none by default, like the public API's new webhooks). */
  events: WebhookEvents.optional(),
});
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequest>;

export const createWebhookRoute = defineRoute({
  method: 'POST',
  path: '/v1/workspace/webhooks',
  summary: 'Create a webhook; its signing secret is in this response only',
  tags: ['webhooks'],
  body: CreateWebhookRequest,
  response: z.object({ webhook_id: z.string(), webhook_secret: z.string() }),
});

export const UpdateWebhookRequest = z
  .object({
    is_disabled: z.boolean(),
    name: WebhookName,
    retry_enabled: z.boolean(),
    request_headers: WebhookRequestHeaders,
    /** The complete list of events; omitted: unchanged. */
    events: WebhookEvents,
    /** Ours: a new address. */
    webhook_url: WebhookUrl,
  })
  .partial();
export type UpdateWebhookRequest = z.infer<typeof UpdateWebhookRequest>;

const WebhookParams = z.object({ webhook_id: z.string().min(1).max(64) });

export const updateWebhookRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/workspace/webhooks/:webhook_id',
  summary: 'Rename, re-point, subscribe, or switch a webhook off and on',
  tags: ['webhooks'],
  params: WebhookParams,
  body: UpdateWebhookRequest,
  response: z.object({ status: z.literal('ok') }),
});

export const deleteWebhookRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/workspace/webhooks/:webhook_id',
  summary: 'Delete a webhook and its delivery log',
  tags: ['webhooks'],
  params: WebhookParams,
  response: z.object({ status: z.literal('ok') }),
});

/** How a delivery attempt ended: delivered, failed for good, or failed and to be tried again. */
export const WEBHOOK_DELIVERY_OUTCOMES = ['succeeded', 'failed', 'retrying'] as const;
export type WebhookDeliveryOutcome = (typeof WEBHOOK_DELIVERY_OUTCOMES)[number];

/** One attempt of a delivery, in the webhook's log (ours). */
export const WebhookDeliveryResponse = z
  .object({
    /** The delivery (an event sent to this webhook); its attempts share it. */
    delivery_id: z.string(),
    event_type: z.string(),
    attempt: z.number().int(),
    status: z.enum(WEBHOOK_DELIVERY_OUTCOMES),
    /** The receiver's HTTP status; null when no answer came (network error, time-out, refused address). */
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
    created_at_unix: z.number().int(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDeliveryResponse = z.infer<typeof WebhookDeliveryResponse>;

export const listWebhookDeliveriesRoute = defineRoute({
  method: 'GET',
  path: '/v1/workspace/webhooks/:webhook_id/deliveries',
  summary: 'A webhook’s delivery log, newest first (the last 100 attempts of 30 days)',
  tags: ['webhooks'],
  params: WebhookParams,
  response: z.object({ deliveries: z.array(WebhookDeliveryResponse) }),
});

export const testWebhookRoute = defineRoute({
  method: 'POST',
  path: '/v1/workspace/webhooks/:webhook_id/test',
  summary: 'Send a signed webhook.test event now and answer how the receiver took it',
  tags: ['webhooks'],
  params: WebhookParams,
  response: z.object({
    success: z.boolean(),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
  }),
});
