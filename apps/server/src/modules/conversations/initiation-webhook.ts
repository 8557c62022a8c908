import http from 'node:http';
import https from 'node:https';
import { ConversationInitiationClientData } from '@parla/contracts';
import {
  AddressNotAllowedError,
  checkedLookup,
  resolvePublicAddresses,
} from '../../platform/network-address';

/*
 * The workspace's conversation initiation webhook (`conversation_initiation_client_data_webhook` of
 * `/v1/convai/settings`), called when a conversation starts with an agent that enables
 * `platform_settings.overrides.enable_conversation_initiation_client_data_from_webhook`. The public API's
 * protocol: a POST of JSON about the call, answered with `conversation_initiation_client_data`
 * (`dynamic_variables`, `conversation_config_override`). Checked like a webhook tool's call (webhook-tool.ts):
 * the address at the call (a private one refused unless the operator allows webhook tools to call them),
 * every resolved address through `checkedLookup`, no redirect followed, the answer read up to
 * MAX_ANSWER_BYTES within INITIATION_WEBHOOK_TIMEOUT_MS. A failure is an InitiationWebhookFailed: the
 * conversation does not start without the data its agent was set up to fetch.
 */

/** How long a conversation's start waits for the webhook. */
export const INITIATION_WEBHOOK_TIMEOUT_MS = 5_000;
export const MAX_ANSWER_BYTES = 64 * 1024;

export class InitiationWebhookFailed extends Error {
  override name = 'InitiationWebhookFailed';
}

export interface InitiationWebhookCall {
  url: string;
  /** Header values, secrets already opened (never logged or answered). */
  headers: Record<string, string>;
}

/** What the webhook is told about the conversation starting. */
export interface InitiationWebhookRequest {
  agent_id: string;
  /** The `user_id` the client sent, if any. */
  user_id: string | null;
  /** The public API's telephony fields: this server takes no phone calls, so they are null. */
  caller_id: null;
  called_number: null;
  call_sid: null;
}

export async function fetchInitiationData(
  call: InitiationWebhookCall,
  body: InitiationWebhookRequest,
  options: { allowPrivate: boolean; timeoutMs?: number; signal?: AbortSignal },
): Promise<ConversationInitiationClientData> {
  const timeoutMs = options.timeoutMs ?? INITIATION_WEBHOOK_TIMEOUT_MS;
  const target = new URL(call.url);
  const where = target.host;
  const fail = (why: string) =>
    new InitiationWebhookFailed(`The conversation initiation webhook (${where}) failed: ${why}`);
  try {
    await resolvePublicAddresses(target.hostname, options.allowPrivate);
  } catch (error) {
    throw fail(
      error instanceof AddressNotAllowedError
        ? `its address is private (${error.address}); this server does not call it.`
        : `its host could not be reached (${(error as Error).message}).`,
    );
  }
  const payload = JSON.stringify(body);
  const client = target.protocol === 'https:' ? https : http;
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, value?: { status: number; text: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else if (value) resolve(value);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        lookup: checkedLookup(options.allowPrivate),
        headers: {
          ...call.headers,
          accept: 'application/json',
          'user-agent': 'Parla-Agents/1.0',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            request.destroy();
            finish(fail(`its answer is larger than ${MAX_ANSWER_BYTES / 1024} KB.`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          finish(undefined, {
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', (error) => finish(fail(error.message)));
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish(fail(`it did not answer within ${timeoutMs / 1000} s.`));
    }, timeoutMs);
    const onAbort = () => {
      request.destroy();
      finish(fail('the conversation was closed meanwhile.'));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) =>
      finish(
        error instanceof AddressNotAllowedError
          ? fail(`its address is private (${error.address}); this server does not call it.`)
          : fail(error.message),
      ),
    );
    request.end(payload);
  });
  if (status < 200 || status >= 300) throw fail(`it answered HTTP ${status}.`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw fail('its answer is not JSON.');
  }
  // The public API's answer names its type; one without it is read the same way.
  const parsed = ConversationInitiationClientData.safeParse({
    type: 'conversation_initiation_client_data',
    ...(json !== null && typeof json === 'object' ? json : {}),
  });
  if (!parsed.success || json === null || typeof json !== 'object' || Array.isArray(json)) {
    const issue = parsed.success ? undefined : parsed.error.issues[0];
    throw fail(
      issue
        ? `its answer's ${issue.path.join('.') || 'body'}: ${issue.message}.`
        : 'its answer is not a JSON object.',
    );
  }
  return parsed.data;
}

/**
 * The client's initiation data with the webhook's on top: the workspace's server decides the dynamic
 * variables and overrides it sends (the client is the visitor's page); the rest stays the client's.
 */
export function mergeInitiationData(
  client: ConversationInitiationClientData | undefined,
  fromWebhook: ConversationInitiationClientData,
): ConversationInitiationClientData {
  const override = (d: ConversationInitiationClientData | undefined) => d?.conversation_config_override ?? {};
  const a = override(client);
  const b = override(fromWebhook);
  return {
    ...(client ?? {}),
    ...fromWebhook,
    type: 'conversation_initiation_client_data',
    user_id: client?.user_id ?? fromWebhook.user_id,
    dynamic_variables: { ...(client?.dynamic_variables ?? {}), ...(fromWebhook.dynamic_variables ?? {}) },
    conversation_config_override: {
      ...a,
      ...b,
      agent: {
        ...(a.agent ?? {}),
        ...(b.agent ?? {}),
        prompt: { ...(a.agent?.prompt ?? {}), ...(b.agent?.prompt ?? {}) },
      },
      tts: { ...(a.tts ?? {}), ...(b.tts ?? {}) },
      conversation: { ...(a.conversation ?? {}), ...(b.conversation ?? {}) },
    },
  } as ConversationInitiationClientData;
}
