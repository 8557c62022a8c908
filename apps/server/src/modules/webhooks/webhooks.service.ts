import { randomBytes } from 'node:crypto';
import {
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
  WEBHOOK_TEST_EVENT_TYPE,
} from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError, invalid, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { openSecret, sealSecret } from '../../platform/secrets';
import { holdsAdminRights } from '../workspaces';
import { postSignedEvent } from './webhook-delivery';
import { checkRequestHeaders, checkWebhookUrl } from './webhook-url';
import { sealingKeyOf, type WebhookDeps } from './webhooks.context';
import {
  deleteWebhookRow,
  getWorkspaceWebhook,
  insertDeliveryAttempt,
  insertWebhook,
  listActiveWebhooks,
  listDeliveryAttempts,
  listWorkspaceWebhooks,
  updateWebhookRow,
} from './webhooks.store';
import type { WebhookDeliveryRow, WebhookRow, webhooks } from './webhooks.tables';

/** Who manages a workspace's webhooks. */
export interface WebhookCaller {
  userId: string;
  workspaceId: string;
}

/** At most this many webhooks per workspace (each event is one delivery per webhook). */
export const MAX_WEBHOOKS_PER_WORKSPACE = 20;

/**
 * Only the workspace's admins manage its webhooks (history/voices §7; accounts §6: admins and editors
 * hold the admin rights). Read from the membership now, not from the token.
 */
async function requireAdmin(deps: Pick<WebhookDeps, 'db'>, caller: WebhookCaller): Promise<void> {
  if (!(await holdsAdminRights(deps.db, caller.workspaceId, caller.userId))) {
    throw new AppError('forbidden', 'Only workspace admins can manage webhooks.');
  }
}

/** A webhook of the caller's workspace; another workspace's is "not found". */
async function workspaceWebhook(
  deps: Pick<WebhookDeps, 'db'>,
  caller: WebhookCaller,
  id: string,
): Promise<WebhookRow> {
  const row = await getWorkspaceWebhook(deps.db, caller.workspaceId, id);
  if (!row) throw notFound('The webhook');
  return row;
}

/**
 * A webhook another module's request names (a transcription's `webhook_id`): 404 `resource_not_found`
 * unless it is one of the caller's workspace, as every foreign id is answered (issue 26 item 9: another
 * workspace's id was accepted, 202, and the transcript delivered nowhere).
 */
export async function requireWorkspaceWebhook(
  deps: Pick<WebhookDeps, 'db'>,
  workspaceId: string,
  id: string,
): Promise<void> {
  if (!(await getWorkspaceWebhook(deps.db, workspaceId, id))) throw notFound('The webhook');
}

/**
 * The workspace's active webhook at `url` (Studio's callback_url: the notification goes through that
 * webhook, signed with its secret and logged), or undefined.
 */
export async function findWorkspaceWebhookAt(
  deps: Pick<WebhookDeps, 'db'>,
  workspaceId: string,
  url: string,
): Promise<string | undefined> {
  const same = (a: string) => {
    try {
      return new URL(a).toString();
    } catch {
      return a;
    }
  };
  const wanted = same(url);
  return (await listActiveWebhooks(deps.db, workspaceId)).find((row) => same(row.url) === wanted)?.id;
}

/**
 * The workspace's webhooks. Every member may list them (the public API's list); the products that use
 * each (`include_usages`) are for admins, as the public API says.
 */
export async function listWebhooks(
  deps: Pick<WebhookDeps, 'db'>,
  caller: WebhookCaller,
  includeUsages: boolean,
): Promise<WebhookRow[]> {
  if (includeUsages) await requireAdmin(deps, caller);
  return listWorkspaceWebhooks(deps.db, caller.workspaceId);
}

/** A new signing secret: `wsec_` and 64 hex characters (256 random bits). */
function newSigningSecret(): string {
  return `wsec_${randomBytes(32).toString('hex')}`;
}

/** Adds a webhook; answers it with its signing secret, shown this one time. */
export async function createWebhook(
  deps: WebhookDeps,
  caller: WebhookCaller,
  body: CreateWebhookRequest,
): Promise<{ row: WebhookRow; secret: string }> {
  await requireAdmin(deps, caller);
  if (body.settings.auth_type !== 'hmac') {
    throw invalid(
      'auth_type',
      'Only hmac webhooks are supported here: deliveries are signed with a shared secret.',
    );
  }
  const url = await checkWebhookUrl(body.settings.webhook_url, {
    production: deps.production,
    allowPrivate: deps.settings.allowPrivateUrls,
    field: ['settings', 'webhook_url'],
  });
  const headers = checkRequestHeaders(body.settings.request_headers ?? {}, ['settings', 'request_headers']);
  if ((await listWorkspaceWebhooks(deps.db, caller.workspaceId)).length >= MAX_WEBHOOKS_PER_WORKSPACE) {
    throw new AppError(
      'conflict',
      `A workspace has at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks; delete one first.`,
    );
  }
  const secret = newSigningSecret();
  const row = await insertWebhook(deps.db, {
    id: newId(),
    workspaceId: caller.workspaceId,
    createdBy: caller.userId,
    name: body.settings.name,
    url,
    secretSealed: sealSecret(secret, await sealingKeyOf(deps)),
    events: body.events ?? [],
    requestHeaders: headers,
    createdAt: deps.clock.now(),
  });
  return { row, secret };
}

/**
 * Changes a webhook. Enabling it (`is_disabled: false`) also lifts the server's switch-off and starts its
 * failures in a row from zero (docs/decisions/0011-webhook-delivery.md).
 */
export async function updateWebhook(
  deps: WebhookDeps,
  caller: WebhookCaller,
  id: string,
  body: UpdateWebhookRequest,
): Promise<WebhookRow> {
  await requireAdmin(deps, caller);
  const row = await workspaceWebhook(deps, caller, id);
  const set: Partial<typeof webhooks.$inferInsert> = {};
  if (body.name !== undefined) set.name = body.name;
  if (body.webhook_url !== undefined) {
    set.url = await checkWebhookUrl(body.webhook_url, {
      production: deps.production,
      allowPrivate: deps.settings.allowPrivateUrls,
      field: ['webhook_url'],
    });
  }
  if (body.events !== undefined) set.events = body.events;
  if (body.retry_enabled !== undefined) set.retryEnabled = body.retry_enabled;
  if (body.request_headers !== undefined)
    set.requestHeaders = checkRequestHeaders(body.request_headers, ['request_headers']);
  if (body.is_disabled === true) {
    set.disabledAt = row.disabledAt ?? deps.clock.now();
  } else if (body.is_disabled === false) {
    set.disabledAt = null;
    set.autoDisabledAt = null;
    set.consecutiveFailures = 0;
  }
  if (Object.keys(set).length === 0) return row;
  return (await updateWebhookRow(deps.db, row.id, set)) ?? row;
}

/** Removes a webhook and its log; deliveries still queued for it end quietly. */
export async function deleteWebhook(
  deps: Pick<WebhookDeps, 'db'>,
  caller: WebhookCaller,
  id: string,
): Promise<void> {
  await requireAdmin(deps, caller);
  if (!(await deleteWebhookRow(deps.db, caller.workspaceId, id))) throw notFound('The webhook');
}

/** A webhook's delivery log, newest first. */
export async function listDeliveries(
  deps: Pick<WebhookDeps, 'db'>,
  caller: WebhookCaller,
  id: string,
): Promise<WebhookDeliveryRow[]> {
  await requireAdmin(deps, caller);
  const row = await workspaceWebhook(deps, caller, id);
  return listDeliveryAttempts(deps.db, row.id);
}

/**
 * Sends a signed `webhook.test` event now (even to a switched-off webhook, to check it before enabling
 * it) and answers how the receiver took it. It is logged, and never counts towards the switch-off.
 */
export async function sendTestEvent(deps: WebhookDeps, caller: WebhookCaller, id: string) {
  await requireAdmin(deps, caller);
  const row = await workspaceWebhook(deps, caller, id);
  const now = deps.clock.now();
  const body = JSON.stringify({
    type: WEBHOOK_TEST_EVENT_TYPE,
    event_timestamp: Math.floor(now.getTime() / 1000),
    data: {
      webhook_id: row.id,
      workspace_id: row.workspaceId,
      message: 'A test event from Parla: this webhook is reachable and its signature can be checked.',
    },
  });
  const result = await postSignedEvent({
    url: row.url,
    body,
    secret: openSecret(row.secretSealed, await sealingKeyOf(deps)),
    headers: row.requestHeaders,
    timeoutMs: deps.settings.timeoutMs,
    allowPrivate: deps.settings.allowPrivateUrls,
    now: () => deps.clock.now(),
  });
  await insertDeliveryAttempt(deps.db, {
    id: newId(),
    webhookId: row.id,
    deliveryId: newId(),
    eventType: WEBHOOK_TEST_EVENT_TYPE,
    attempt: 1,
    outcome: result.ok ? 'succeeded' : 'failed',
    statusCode: result.statusCode,
    error: result.error,
    durationMs: result.durationMs,
    createdAt: deps.clock.now(),
  });
  return result;
}

/** accounts §3 Workspace.speech_to_text_webhook_ids: the workspace's active webhooks told of transcriptions. */
export async function speechToTextWebhookIds(db: Db, workspaceId: string): Promise<string[]> {
  const active = await listActiveWebhooks(db, workspaceId);
  return active.filter((row) => row.events.includes('speech_to_text')).map((row) => row.id);
}
