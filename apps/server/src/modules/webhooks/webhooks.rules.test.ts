import { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';
import { WEBHOOK_EVENT_TYPES } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_NAMES } from '../../platform/events/catalog';
import { signatureHeader } from './webhook-delivery';
import { checkRequestHeaders, checkWebhookUrl } from './webhook-url';
import { DELIVERED_EVENT_NAMES, planDeliveries } from './webhooks.events';
import type { WebhookRow } from './webhooks.tables';

const sdk = new ElevenLabsClient({ apiKey: 'unused', baseUrl: 'http://127.0.0.1:9' });

describe('signatureHeader', () => {
  it('is what the official client’s constructEvent verifies, and nothing else is', async () => {
    const body = JSON.stringify({ type: 'webhook.test', data: { n: 'é' } });
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeader('wsec_abc', body, now);
    expect(header).toMatch(new RegExp(`^t=${now},v0=[0-9a-f]{64}$`));
    await expect(sdk.webhooks.constructEvent(body, header, 'wsec_abc')).resolves.toEqual(JSON.parse(body));
    await expect(sdk.webhooks.constructEvent(body, header, 'wsec_abd')).rejects.toThrow(/does not match/);
    await expect(sdk.webhooks.constructEvent(body.replace('é', 'e'), header, 'wsec_abc')).rejects.toThrow();
    // An old signature is refused by the receiver (30 minutes): each retry is signed afresh.
    const old = signatureHeader('wsec_abc', body, now - 31 * 60);
    await expect(sdk.webhooks.constructEvent(body, old, 'wsec_abc')).rejects.toThrow(/tolerance/);
  });
});

describe('the subscribable events', () => {
  it('are the public speech_to_text and post_call_transcription and the catalogue events delivered today, each a webhook name', () => {
    expect([...WEBHOOK_EVENT_TYPES].sort()).toEqual(
      ['speech_to_text', 'post_call_transcription', ...DELIVERED_EVENT_NAMES].sort(),
    );
    for (const name of DELIVERED_EVENT_NAMES) expect(WEBHOOK_EVENT_NAMES).toContain(name);
  });

  it('leave no name of the catalogue undelivered but those that name no workspace any more', () => {
    const gone = ['user.deleted', 'workspace.deleted'];
    expect(WEBHOOK_EVENT_NAMES.filter((name) => !gone.includes(name)).sort()).toEqual(
      [...DELIVERED_EVENT_NAMES].sort(),
    );
  });
});

const row = (id: string, events: string[]) => ({ id, events }) as unknown as WebhookRow;

describe('planDeliveries', () => {
  const base = {
    workspaceId: 'ws',
    userId: 'u1',
    transcriptionId: 't1',
    requestId: 'r1',
    webhookMetadata: { a: 1 },
    transcription: { text: 'Hi.' },
  };
  const hooks = [row('stt', ['speech_to_text']), row('all', ['transcription.completed']), row('none', [])];

  it('sends webhook=true transcriptions to speech to text in the public form, the rest in ours', () => {
    const plan = planDeliveries(
      'transcription.completed',
      { ...base, webhook: true, webhookId: null },
      hooks,
      100,
    );
    expect([...plan.keys()].map((r) => r.id).sort()).toEqual(['all', 'stt']);
    expect(plan.get(hooks[0] as WebhookRow)).toEqual({
      type: 'speech_to_text_transcription',
      event_timestamp: 100,
      data: { request_id: 'r1', webhook_metadata: { a: 1 }, transcription: { text: 'Hi.' } },
    });
    expect(plan.get(hooks[1] as WebhookRow)).toEqual({
      type: 'transcription.completed',
      event_timestamp: 100,
      data: {
        workspace_id: 'ws',
        user_id: 'u1',
        transcription_id: 't1',
        request_id: 'r1',
        webhook_metadata: { a: 1 },
        transcription: { text: 'Hi.' },
      },
    });
  });

  it('sends only to the named webhook, and nothing to speech to text without webhook=true', () => {
    const named = planDeliveries(
      'transcription.completed',
      { ...base, webhook: true, webhookId: 'none' },
      hooks,
      1,
    );
    expect([...named.keys()].map((r) => r.id).sort()).toEqual(['all', 'none']);
    const quiet = planDeliveries(
      'transcription.completed',
      { ...base, webhook: false, webhookId: null },
      hooks,
      1,
    );
    expect([...quiet.keys()].map((r) => r.id)).toEqual(['all']);
  });

  it('sends other events to their subscribers only', () => {
    const plan = planDeliveries(
      'api_key.created',
      { workspaceId: 'ws', userId: 'u', keyId: 'k' },
      [row('keys', ['api_key.created']), ...hooks],
      5,
    );
    expect([...plan.values()]).toEqual([
      {
        type: 'api_key.created',
        event_timestamp: 5,
        data: { workspace_id: 'ws', user_id: 'u', key_id: 'k' },
      },
    ]);
  });
});

describe('checkWebhookUrl', () => {
  const field = ['settings', 'webhook_url'];
  it('wants https in production, and takes http elsewhere', async () => {
    await expect(
      checkWebhookUrl('http://8.8.8.8/hook', { production: true, allowPrivate: false, field }),
    ).rejects.toThrow(/must start with https:\/\//);
    await expect(
      checkWebhookUrl('http://8.8.8.8/hook#x', { production: false, allowPrivate: false, field }),
    ).resolves.toBe('http://8.8.8.8/hook');
    await expect(
      checkWebhookUrl('https://8.8.8.8/hook', { production: true, allowPrivate: false, field }),
    ).resolves.toBe('https://8.8.8.8/hook');
  });

  it('names the field and the refused address', async () => {
    const error = (await checkWebhookUrl('http://192.168.0.10/', {
      production: false,
      allowPrivate: false,
      field,
    }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { errors: { loc: string[] }[]; message: string };
    expect(error.message).toContain('192.168.0.10');
    expect(error.errors[0]?.loc).toEqual(['body', 'settings', 'webhook_url']);
  });

  it('keeps the headers a delivery sets for itself', () => {
    expect(() => checkRequestHeaders({ 'ElevenLabs-Signature': 'x' }, ['request_headers'])).toThrow(
      /set by the server/,
    );
    expect(checkRequestHeaders({ Authorization: 'Bearer x' }, ['request_headers'])).toEqual({
      Authorization: 'Bearer x',
    });
  });
});

describe('the post-call webhook', () => {
  it('gives post_call_transcription the conversation as the public API sends it, and conversation.ended its own form', () => {
    const conversation = { agent_id: 'a1', conversation_id: 'c1', status: 'done', transcript: [] };
    const hooks = [
      row('post', ['post_call_transcription']),
      row('ours', ['conversation.ended']),
      row('none', []),
    ];
    const plan = planDeliveries(
      'conversation.ended',
      { workspaceId: 'ws', agentId: 'a1', conversationId: 'c1', conversation },
      hooks,
      100,
    );
    expect([...plan.keys()].map((r) => r.id).sort()).toEqual(['ours', 'post']);
    expect(plan.get(hooks[0] as WebhookRow)).toEqual({
      type: 'post_call_transcription',
      event_timestamp: 100,
      data: conversation,
    });
    expect(plan.get(hooks[1] as WebhookRow)).toMatchObject({
      type: 'conversation.ended',
      data: { agent_id: 'a1', conversation_id: 'c1' },
    });
  });

  it('goes to the webhook the Conversational AI settings choose, and to no other, whatever it subscribes to', () => {
    const conversation = { agent_id: 'a1', conversation_id: 'c1' };
    const hooks = [
      row('post', ['post_call_transcription']),
      row('chosen', []),
      row('ours', ['conversation.ended']),
    ];
    const plan = planDeliveries(
      'conversation.ended',
      { workspaceId: 'ws', agentId: 'a1', conversationId: 'c1', conversation, postCallWebhookId: 'chosen' },
      hooks,
      100,
    );
    expect([...plan.keys()].map((r) => r.id).sort()).toEqual(['chosen', 'ours']);
    expect(plan.get(hooks[1] as WebhookRow)).toMatchObject({
      type: 'post_call_transcription',
      data: conversation,
    });
    // The choice is not part of the event as our own form sends it.
    expect(JSON.stringify(plan.get(hooks[2] as WebhookRow))).not.toContain('chosen');
  });
});
