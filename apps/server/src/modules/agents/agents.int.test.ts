import { ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { AGENT_DEFAULT_VOICE_ID } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, newSpeechAccount, premadeVoiceId, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { agentDepsOf, loadAgentForConversation } from './index';

/*
 * Agents, tools and secrets (issue 28 items 1 and 4) through the real app with the official client
 * (`conversationalAi.agents / tools / secrets`), the API's error shape for bad input, the public widget,
 * and the front door the conversation socket reads agents through.
 */

let t: TestApp;
let baseUrl: string;
let a: SpeechAccount;
let b: SpeechAccount;

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  a = await newSpeechAccount(t.app, baseUrl);
  b = await newSpeechAccount(t.app, baseUrl);
}, 60_000);
afterAll(() => t.close());

/** The status of an SDK call that must fail. */
async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ElevenLabsError) return error.statusCode;
    throw error;
  }
  return 200;
}

describe('agents with the official client', () => {
  it('creates, reads, lists, updates (a merge), duplicates and deletes', async () => {
    const voiceId = premadeVoiceId('Grace');
    const { agentId } = await a.sdk.conversationalAi.agents.create({
      name: 'Support desk',
      tags: ['support'],
      conversationConfig: {
        agent: {
          firstMessage: 'Hello, how can I help?',
          language: 'en',
          prompt: {
            prompt: 'You answer questions about opening hours.',
            temperature: 0.2,
            llm: 'gpt-4o-mini',
          },
        },
        tts: { voiceId, stability: 0.6 },
        conversation: { maxDurationSeconds: 300 },
      },
      platformSettings: { privacy: { recordVoice: false } },
    });
    expect(agentId).toMatch(/^agent_/);

    const agent = await a.sdk.conversationalAi.agents.get(agentId);
    expect(agent.name).toBe('Support desk');
    expect(agent.tags).toEqual(['support']);
    expect(agent.conversationConfig.agent?.prompt?.prompt).toBe('You answer questions about opening hours.');
    expect(agent.conversationConfig.agent?.prompt?.temperature).toBe(0.2);
    expect(agent.conversationConfig.tts?.voiceId).toBe(voiceId);
    // What was not given holds the documented defaults.
    expect(agent.conversationConfig.tts?.similarityBoost).toBe(0.8);
    expect(agent.conversationConfig.asr?.userInputAudioFormat).toBe('pcm_16000');
    expect(agent.conversationConfig.turn?.turnTimeout).toBe(7);
    expect(agent.platformSettings?.privacy?.recordVoice).toBe(false);
    expect(agent.platformSettings?.auth?.enableAuth).toBe(false);
    expect(agent.accessInfo?.isCreator).toBe(true);

    const updated = await a.sdk.conversationalAi.agents.update(agentId, {
      conversationConfig: { agent: { prompt: { temperature: 0.9 } } },
      name: 'Front desk',
    });
    expect(updated.name).toBe('Front desk');
    expect(updated.conversationConfig.agent?.prompt?.temperature).toBe(0.9);
    expect(updated.conversationConfig.agent?.prompt?.prompt).toBe(
      'You answer questions about opening hours.',
    );
    expect(updated.conversationConfig.agent?.firstMessage).toBe('Hello, how can I help?');
    expect(updated.conversationConfig.tts?.stability).toBe(0.6);

    const copy = await a.sdk.conversationalAi.agents.duplicate(agentId, { name: 'Night desk' });
    const copied = await a.sdk.conversationalAi.agents.get(copy.agentId);
    expect(copied.conversationConfig.agent?.prompt?.temperature).toBe(0.9);

    const all = await a.sdk.conversationalAi.agents.list({ search: 'desk' });
    expect(all.agents.map((x) => x.name).sort()).toEqual(['Front desk', 'Night desk']);
    expect(all.agents.find((x) => x.agentId === agentId)?.voiceId).toBe(voiceId);
    const first = await a.sdk.conversationalAi.agents.list({
      pageSize: 1,
      sortBy: 'name',
      sortDirection: 'asc',
    });
    expect(first.agents.map((x) => x.name)).toEqual(['Front desk']);
    expect(first.hasMore).toBe(true);
    const second = await a.sdk.conversationalAi.agents.list({
      pageSize: 1,
      sortBy: 'name',
      sortDirection: 'asc',
      cursor: first.nextCursor,
    });
    expect(second.agents.map((x) => x.name)).toEqual(['Night desk']);
    expect(second.hasMore).toBe(false);

    await a.sdk.conversationalAi.agents.delete(copy.agentId);
    expect(await statusOf(a.sdk.conversationalAi.agents.get(copy.agentId))).toBe(404);
  });

  it('gives a new agent the default voice and accepts fields it does not use', async () => {
    const { agentId } = await a.sdk.conversationalAi.agents.create({
      conversationConfig: { vad: { backgroundVoiceDetection: true }, agent: { hinglishMode: false } },
      platformSettings: { callLimits: { dailyLimit: 10 } },
    });
    const agent = await a.sdk.conversationalAi.agents.get(agentId);
    expect(agent.name).toBe('New agent');
    expect(agent.conversationConfig.tts?.voiceId).toBe(AGENT_DEFAULT_VOICE_ID);
  });
});

describe('bad agent input, in the API’s error shape', () => {
  const create = (conversation_config: unknown) =>
    callAs(t.app, a, 'POST', '/v1/convai/agents/create', { conversation_config });

  it('names the field and says what is allowed', async () => {
    const response = await create({ agent: { prompt: { temperature: 2 } } });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail.status).toBe('invalid_request');
    expect(response.json().detail.message).toContain('The temperature is between 0 and 1.');
  });

  it('refuses a voice the workspace does not have, a model and a tool that do not exist', async () => {
    const voice = await create({ tts: { voice_id: 'nosuchvoice000000000' } });
    expect(voice.statusCode).toBe(422);
    expect(voice.json().detail.message).toBe(
      "The voice nosuchvoice000000000 was not found: choose a premade voice or one of this workspace's.",
    );
    const model = await create({ tts: { model_id: 'no_such_model' } });
    expect(model.statusCode).toBe(422);
    expect(model.json().detail.message).toContain('no_such_model is not a text-to-speech model');
    const tool = await create({ agent: { prompt: { tool_ids: ['tool_missing'] } } });
    expect(tool.statusCode).toBe(422);
    expect(tool.json().detail.message).toBe('The tool tool_missing was not found in this workspace.');
    const document = await create({
      agent: { prompt: { knowledge_base: [{ type: 'text', name: 'Gone', id: 'kb_missing' }] } },
    });
    expect(document.statusCode).toBe(422);
    expect(document.json().detail.message).toBe(
      'The knowledge-base document kb_missing was not found in this workspace.',
    );
  });

  it('refuses another workspace’s voice and a transfer to another workspace’s agent', async () => {
    const { agentId } = await b.sdk.conversationalAi.agents.create({ conversationConfig: {} });
    const transfer = await create({
      agent: {
        prompt: {
          built_in_tools: {
            transfer_to_agent: {
              name: 'transfer',
              params: {
                system_tool_type: 'transfer_to_agent',
                transfers: [{ agent_id: agentId, condition: 'billing' }],
              },
            },
          },
        },
      },
    });
    expect(transfer.statusCode).toBe(422);
    expect(transfer.json().detail.message).toBe(
      `The agent ${agentId} to transfer to was not found in this workspace.`,
    );
  });

  it('leaves the agent unchanged when an update is refused', async () => {
    const { agentId } = await a.sdk.conversationalAi.agents.create({
      conversationConfig: { agent: { prompt: { temperature: 0.3 } } },
    });
    const refused = await callAs(t.app, a, 'PATCH', `/v1/convai/agents/${agentId}`, {
      conversation_config: {
        agent: { prompt: { temperature: 0.5 } },
        tts: { voice_id: 'nosuchvoice000000000' },
      },
    });
    expect(refused.statusCode).toBe(422);
    expect(
      (await a.sdk.conversationalAi.agents.get(agentId)).conversationConfig.agent?.prompt?.temperature,
    ).toBe(0.3);
  });
});

describe('the widget and the link', () => {
  it('shows a public agent’s widget without a key, to allowed origins only', async () => {
    const { agentId } = await a.sdk.conversationalAi.agents.create({
      conversationConfig: { agent: { firstMessage: 'Hi there', language: 'fr' } },
      platformSettings: {
        widget: { variant: 'compact', btnColor: '#112233' },
        auth: { allowlist: [{ hostname: 'shop.example.com' }] },
      },
    });
    const open = await t.app.inject({
      method: 'GET',
      url: `/v1/convai/agents/${agentId}/widget`,
      headers: { origin: 'https://shop.example.com' },
    });
    expect(open.statusCode).toBe(200);
    expect(open.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    expect(open.json()).toMatchObject({
      agent_id: agentId,
      widget_config: { variant: 'compact', btn_color: '#112233', language: 'fr', first_message: 'Hi there' },
    });
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `/v1/convai/agents/${agentId}/widget`,
      headers: { origin: 'https://evil.test' },
    });
    expect(elsewhere.statusCode).toBe(403);
    // The official client reads it too.
    const widget = await a.sdk.conversationalAi.agents.widget.get(agentId);
    expect(widget.widgetConfig.variant).toBe('compact');
  });

  it('hides an agent that needs signed URLs from anyone outside its workspace', async () => {
    const { agentId } = await a.sdk.conversationalAi.agents.create({
      conversationConfig: {},
      platformSettings: { auth: { enableAuth: true } },
    });
    const anonymous = await t.app.inject({ method: 'GET', url: `/v1/convai/agents/${agentId}/widget` });
    expect(anonymous.statusCode).toBe(404);
    expect(await statusOf(b.sdk.conversationalAi.agents.widget.get(agentId))).toBe(404);
    expect(await statusOf(a.sdk.conversationalAi.agents.widget.get(agentId))).toBe(200);
    const badKey = await t.app.inject({
      method: 'GET',
      url: `/v1/convai/agents/${agentId}/widget`,
      headers: { 'xi-api-key': 'sk_not_a_key' },
    });
    expect(badKey.statusCode).toBe(401);
  });

  it('answers the agent’s shareable page', async () => {
    const { agentId } = await a.sdk.conversationalAi.agents.create({ conversationConfig: {} });
    const link = await callAs(t.app, a, 'GET', `/v1/convai/agents/${agentId}/link`);
    expect(link.statusCode).toBe(200);
    expect(link.json().url).toContain(`/app/conversational-ai/talk-to?agent_id=${agentId}`);
    expect(await statusOf(b.sdk.conversationalAi.agents.link.get(agentId))).toBe(404);
  });
});

describe('tools and secrets with the official client', () => {
  it('keeps a secret sealed, sends it through a tool, and never answers its value', async () => {
    const value = 'Bearer s3cr3t-value-that-must-not-leak';
    const secret = await a.sdk.conversationalAi.secrets.create({ name: 'orders-api', value });
    expect(secret).toMatchObject({ type: 'stored', name: 'orders-api' });

    const tool = await a.sdk.conversationalAi.tools.create({
      toolConfig: {
        type: 'webhook',
        name: 'lookup_order',
        description: 'Looks an order up by its number.',
        apiSchema: {
          url: 'https://192.0.43.10/orders/{order_id}',
          method: 'GET',
          requestHeaders: {
            Authorization: { secretId: secret.secretId },
            'X-Caller': { variableName: 'user_id' },
          },
          pathParamsSchema: { order_id: { type: 'string', description: 'The order number' } },
          queryParamsSchema: { properties: { detail: { type: 'boolean', description: 'With the lines' } } },
        },
      },
    });
    expect(tool.toolConfig.type).toBe('webhook');
    const client = await a.sdk.conversationalAi.tools.create({
      toolConfig: {
        type: 'client',
        name: 'show_card',
        description: 'Shows a product card on the page.',
        expectsResponse: true,
        parameters: { type: 'object', properties: { sku: { type: 'string', description: 'The product' } } },
      },
    });

    const tools = await a.sdk.conversationalAi.tools.list();
    expect(tools.tools.map((x) => x.id).sort()).toEqual([tool.id, client.id].sort());
    expect((await a.sdk.conversationalAi.tools.get(tool.id)).toolConfig).toMatchObject({
      name: 'lookup_order',
    });

    const secrets = await a.sdk.conversationalAi.secrets.list();
    expect(secrets.secrets).toHaveLength(1);
    expect(secrets.secrets[0]?.usedBy.tools.map((x) => x.type === 'available' && x.id)).toEqual([tool.id]);
    for (const path of [
      '/v1/convai/secrets',
      `/v1/convai/secrets/${secret.secretId}`,
      `/v1/convai/tools/${tool.id}`,
    ]) {
      expect((await callAs(t.app, a, 'GET', path)).body).not.toContain('s3cr3t');
    }

    const doc = await a.sdk.conversationalAi.knowledgeBase.documents.createFromText({
      text: 'The shop opens at nine and closes at six.',
      name: 'Hours',
    });
    const { agentId } = await a.sdk.conversationalAi.agents.create({
      name: 'Shop agent',
      conversationConfig: {
        agent: {
          prompt: {
            toolIds: [tool.id, client.id],
            knowledgeBase: [{ type: 'text', name: 'Hours', id: doc.id, usageMode: 'auto' }],
            builtInTools: { endCall: { name: 'end_call', params: { systemToolType: 'end_call' } } },
          },
        },
      },
    });
    const loaded = await loadAgentForConversation(agentDepsOf(t.deps), agentId);
    expect(loaded?.workspaceId).toBe(a.workspaceId);
    expect(loaded?.tools.map((x) => x.type)).toEqual(['webhook', 'client']);
    const webhook = loaded?.tools[0];
    expect(webhook?.type === 'webhook' && webhook.headers).toEqual({
      Authorization: { value },
      'X-Caller': { variableName: 'user_id' },
    });
    expect(loaded?.knowledgeBase).toEqual([{ id: doc.id, name: 'Hours', type: 'text', usageMode: 'auto' }]);
    // The knowledge base knows the agent uses the document, and forgets it when the agent goes.
    const dependents = await a.sdk.conversationalAi.knowledgeBase.documents.getAgents(doc.id);
    expect(JSON.stringify(dependents)).toContain(agentId);
    expect(loaded?.config.agent.prompt.built_in_tools.end_call?.params.system_tool_type).toBe('end_call');
    expect(await loadAgentForConversation(agentDepsOf(t.deps), 'agent_none')).toBeNull();

    // In use: neither the secret nor the tool goes without being asked to.
    expect(await statusOf(a.sdk.conversationalAi.secrets.delete(secret.secretId))).toBe(409);
    expect(await statusOf(a.sdk.conversationalAi.tools.delete(tool.id))).toBe(409);
    await a.sdk.conversationalAi.tools.delete(tool.id, { force: true });
    expect(
      (await a.sdk.conversationalAi.agents.get(agentId)).conversationConfig.agent?.prompt?.toolIds,
    ).toEqual([client.id]);
    const renamed = await a.sdk.conversationalAi.secrets.update(secret.secretId, {
      name: 'orders',
      value: 'new',
    });
    expect(renamed.name).toBe('orders');
    const reloaded = await loadAgentForConversation(agentDepsOf(t.deps), agentId);
    expect(reloaded?.tools.map((x) => x.id)).toEqual([client.id]);
    await a.sdk.conversationalAi.secrets.delete(secret.secretId);
    expect((await a.sdk.conversationalAi.secrets.list()).secrets).toEqual([]);
    expect(await statusOf(a.sdk.conversationalAi.knowledgeBase.documents.delete(doc.id))).toBe(409);
    await a.sdk.conversationalAi.agents.delete(agentId);
    await a.sdk.conversationalAi.knowledgeBase.documents.delete(doc.id);
  });

  it('refuses a tool URL at a private address, and an unknown secret', async () => {
    const tool = (url: string, headers: Record<string, unknown> = {}) =>
      callAs(t.app, a, 'POST', '/v1/convai/tools', {
        tool_config: {
          type: 'webhook',
          name: 'probe',
          description: 'Probes.',
          api_schema: { url, request_headers: headers },
        },
      });
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
      'http://10.0.0.7/',
    ]) {
      const refused = await tool(url);
      expect(refused.statusCode, url).toBe(422);
      expect(refused.json().detail.message, url).toContain('AGENT_TOOL_ALLOW_PRIVATE_URLS=true');
    }
    const secret = await tool('https://192.0.43.10/x', { Authorization: { secret_id: 'secret_missing' } });
    expect(secret.statusCode).toBe(422);
    expect(secret.json().detail.message).toContain('The secret secret_missing was not found');
    const placeholderHost = await tool('https://{host}/x');
    expect(placeholderHost.statusCode).toBe(422);
  });

  it('answers another workspace’s agent, tool and secret 404', async () => {
    const { agentId } = await a.sdk.conversationalAi.agents.create({ conversationConfig: {} });
    const tool = await a.sdk.conversationalAi.tools.create({
      toolConfig: { type: 'client', name: 'wave', description: 'Waves.' },
    });
    const secret = await a.sdk.conversationalAi.secrets.create({ name: 'private', value: 'x' });
    expect(await statusOf(b.sdk.conversationalAi.agents.get(agentId))).toBe(404);
    expect(await statusOf(b.sdk.conversationalAi.agents.update(agentId, { name: 'Stolen' }))).toBe(404);
    expect(await statusOf(b.sdk.conversationalAi.agents.delete(agentId))).toBe(404);
    expect(await statusOf(b.sdk.conversationalAi.tools.get(tool.id))).toBe(404);
    expect(await statusOf(b.sdk.conversationalAi.tools.delete(tool.id))).toBe(404);
    expect(await statusOf(b.sdk.conversationalAi.secrets.get(secret.secretId))).toBe(404);
    expect(await statusOf(b.sdk.conversationalAi.secrets.delete(secret.secretId))).toBe(404);
    // B may not name A's tool in its own agent either.
    const borrowed = await callAs(t.app, b, 'POST', '/v1/convai/agents/create', {
      conversation_config: { agent: { prompt: { tool_ids: [tool.id] } } },
    });
    expect(borrowed.statusCode).toBe(422);
    expect((await a.sdk.conversationalAi.agents.get(agentId)).name).toBe('New agent');
    expect((await b.sdk.conversationalAi.agents.list()).agents.map((x) => x.agentId)).not.toContain(agentId);
  });
});
