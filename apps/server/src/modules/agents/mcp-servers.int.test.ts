import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type McpTestServer, startMcpTestServer } from '../../test/mcp-test-server';
import { type ScriptedLlm, startScriptedLlm } from '../../test/scripted-llm';
import { callAs, newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * MCP servers (issue 28 "MCP servers"): the public API's `conversationalAi.mcpServers` calls through the
 * official ElevenLabs client against the real app, the tools asked of a real MCP server (built with the
 * official MCP SDK, on 127.0.0.1) over streamable HTTP and SSE with the bearer token from a workspace
 * secret, the approval policy honoured, and a conversation (scripted LLM) in which the agent calls an
 * approved MCP tool and speaks its answer. Bad input: a private address where the operator allows none,
 * a server that cannot be reached, a tool not approved, another workspace's server.
 */

let t: TestApp;
let strict: TestApp;
let llm: ScriptedLlm;
let mcp: McpTestServer;
let baseUrl: string;
let a: SpeechAccount;
let b: SpeechAccount;
let secretId: string;

beforeAll(async () => {
  llm = await startScriptedLlm();
  mcp = await startMcpTestServer();
  t = await createTestApp({
    env: {
      ENGINE_POOL_SIZE: '1',
      ENGINE_TIMEOUT_MS: '60000',
      LLM_PROVIDER: 'openai',
      LLM_OPENAI_URL: llm.url,
      LLM_OPENAI_MODEL: 'scripted-model',
      AGENT_TOOL_ALLOW_PRIVATE_URLS: 'true',
    },
  });
  strict = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  a = await newSpeechAccount(t.app, baseUrl);
  b = await newSpeechAccount(t.app, baseUrl);
  secretId = (await a.sdk.conversationalAi.secrets.create({ name: 'MCP token', value: 'mcp-token-7' }))
    .secretId;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await strict?.close();
  await llm?.close();
  await mcp?.close();
});

async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return 200;
  } catch (error) {
    return (error as { statusCode?: number }).statusCode;
  }
}

describe('MCP servers through the official client', () => {
  it('adds a server, lists the tools it really offers, approves one, and deletes it', async () => {
    const created = await a.sdk.conversationalAi.mcpServers.create({
      config: {
        url: `${mcp.url}/mcp`,
        name: 'Orders',
        transport: 'STREAMABLE_HTTP',
        approvalPolicy: 'require_approval_per_tool',
        secretToken: { secretId },
      },
    });
    expect(created.config).toMatchObject({
      name: 'Orders',
      transport: 'STREAMABLE_HTTP',
      approvalPolicy: 'require_approval_per_tool',
      secretToken: { secretId },
    });
    expect(JSON.stringify(created)).not.toContain('mcp-token-7');
    const listed = await a.sdk.conversationalAi.mcpServers.list();
    expect(listed.mcpServers.map((s) => s.id)).toContain(created.id);

    const tools = await a.sdk.conversationalAi.mcpServers.tools.list(created.id);
    expect(tools.success).toBe(true);
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['delete_everything', 'order_lookup']);
    expect(mcp.authorizations.at(-1)).toBe('Bearer mcp-token-7');
    expect(tools.toolApprovalStatuses?.map((s) => s.state)).toEqual(['not_approved', 'not_approved']);

    const lookup = tools.tools.find((tool) => tool.name === 'order_lookup');
    const approved = await a.sdk.conversationalAi.mcpServers.toolApprovals.create(created.id, {
      toolName: 'order_lookup',
      toolDescription: lookup?.description ?? '',
      inputSchema: lookup?.inputSchema,
    });
    expect(approved.config.toolApprovalHashes).toEqual([
      expect.objectContaining({ toolName: 'order_lookup', approvalPolicy: 'auto_approved' }),
    ]);
    const after = await a.sdk.conversationalAi.mcpServers.tools.list(created.id);
    const state = Object.fromEntries(after.toolApprovalStatuses?.map((s) => [s.toolId, s.state]) ?? []);
    expect(state[`mcp:${created.id}:order_lookup`]).toBe('up_to_date');
    expect(state[`mcp:${created.id}:delete_everything`]).toBe('not_approved');

    const policy = await a.sdk.conversationalAi.mcpServers.approvalPolicy.update(created.id, {
      approvalPolicy: 'auto_approve_all',
    });
    expect(policy.config.approvalPolicy).toBe('auto_approve_all');
    const patched = await a.sdk.conversationalAi.mcpServers.update(created.id, { responseTimeoutSecs: 30 });
    expect(patched.config).toMatchObject({ responseTimeoutSecs: 30, approvalPolicy: 'auto_approve_all' });
    const withdrawn = await a.sdk.conversationalAi.mcpServers.toolApprovals.delete(
      created.id,
      'order_lookup',
    );
    expect(withdrawn.config.toolApprovalHashes).toEqual([]);

    // Another workspace sees none of it.
    expect(await statusOf(b.sdk.conversationalAi.mcpServers.get(created.id))).toBe(404);
    expect(await statusOf(b.sdk.conversationalAi.mcpServers.tools.list(created.id))).toBe(404);
    expect((await b.sdk.conversationalAi.mcpServers.list()).mcpServers).toEqual([]);

    await a.sdk.conversationalAi.mcpServers.delete(created.id);
    expect(await statusOf(a.sdk.conversationalAi.mcpServers.get(created.id))).toBe(404);
  }, 60_000);

  it('speaks SSE as well', async () => {
    const created = await a.sdk.conversationalAi.mcpServers.create({
      config: { url: `${mcp.url}/sse`, name: 'Orders over SSE', transport: 'SSE' },
    });
    const tools = await a.sdk.conversationalAi.mcpServers.tools.list(created.id);
    expect(tools.success).toBe(true);
    expect(tools.tools.map((tool) => tool.name)).toContain('order_lookup');
    await a.sdk.conversationalAi.mcpServers.delete(created.id);
  }, 30_000);

  it('refuses bad input clearly and says when a server cannot be reached', async () => {
    const account = await newSpeechAccount(strict.app, baseUrl);
    const privateAddress = await callAs(strict.app, account, 'POST', '/v1/convai/mcp-servers', {
      config: { url: `${mcp.url}/mcp`, name: 'Local' },
    });
    expect(privateAddress.statusCode).toBe(422);
    expect(privateAddress.json().detail.message).toMatch(
      /private, loopback or reserved address \(127\.0\.0\.1\)/,
    );
    expect((await callAs(strict.app, account, 'GET', '/v1/convai/mcp-servers')).json()).toEqual({
      mcp_servers: [],
    });

    const bad = await callAs(t.app, a, 'POST', '/v1/convai/mcp-servers', {
      config: { url: 'ftp://example.com/mcp', name: 'FTP' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail.message).toMatch(/https:\/\//);
    const noSecret = await callAs(t.app, a, 'POST', '/v1/convai/mcp-servers', {
      config: { url: `${mcp.url}/mcp`, name: 'X', secret_token: { secret_id: 'secret_nope' } },
    });
    expect(noSecret.statusCode).toBe(422);
    expect(noSecret.json().detail.message).toMatch(/secret_nope was not found/);

    // A port nothing listens on: the tools call says so, it does not hang or fail the request.
    const closed = await a.sdk.conversationalAi.mcpServers.create({
      config: { url: 'http://127.0.0.1:9/mcp', name: 'Gone', transport: 'STREAMABLE_HTTP' },
    });
    const started = Date.now();
    const unreachable = await a.sdk.conversationalAi.mcpServers.tools.list(closed.id);
    expect(unreachable.success).toBe(false);
    expect(unreachable.errorMessage).toMatch(/could not be reached/);
    expect(Date.now() - started).toBeLessThan(11_000);
    await a.sdk.conversationalAi.mcpServers.delete(closed.id);

    // An agent may name only its workspace's MCP servers; the public API's hosted ones do not exist here.
    const missing = await callAs(t.app, a, 'POST', '/v1/convai/agents/create', {
      conversation_config: { agent: { prompt: { mcp_server_ids: ['mcp_nope'] } } },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail.message).toMatch(/MCP server mcp_nope was not found/);
    const native = await callAs(t.app, a, 'POST', '/v1/convai/agents/create', {
      conversation_config: { agent: { prompt: { native_mcp_server_ids: ['x'] } } },
    });
    expect(native.statusCode).toBe(422);
  }, 60_000);
});

describe('an agent calls an MCP tool in a conversation', () => {
  it('offers only the approved tool, runs it on the server and speaks its answer', async () => {
    const server = await a.sdk.conversationalAi.mcpServers.create({
      config: {
        url: `${mcp.url}/mcp`,
        name: 'Orders',
        transport: 'STREAMABLE_HTTP',
        approvalPolicy: 'require_approval_per_tool',
        secretToken: { secretId },
      },
    });
    const listed = await a.sdk.conversationalAi.mcpServers.tools.list(server.id);
    const lookup = listed.tools.find((tool) => tool.name === 'order_lookup');
    await a.sdk.conversationalAi.mcpServers.toolApprovals.create(server.id, {
      toolName: 'order_lookup',
      toolDescription: lookup?.description ?? '',
      inputSchema: lookup?.inputSchema,
    });
    const agent = await a.sdk.conversationalAi.agents.create({
      name: 'Orders agent',
      conversationConfig: {
        agent: {
          firstMessage: 'Hi.',
          prompt: { prompt: 'You track orders.', mcpServerIds: [server.id] },
        },
        tts: { modelId: 'eleven_flash_v2' },
      },
    });
    expect(
      (await a.sdk.conversationalAi.agents.get(agent.agentId)).conversationConfig.agent?.prompt?.mcpServerIds,
    ).toEqual([server.id]);
    expect((await a.sdk.conversationalAi.mcpServers.get(server.id)).dependentAgents).toEqual([
      expect.objectContaining({ id: agent.agentId, name: 'Orders agent' }),
    ]);

    llm.enqueue({ toolCalls: [{ name: 'order_lookup', arguments: { order_id: 'B-7' } }] });
    llm.enqueue({ text: 'Your order B-7 left the warehouse on Monday.' });
    // A prompt-injected call of the tool that was not approved is refused, never run.
    llm.enqueue({ toolCalls: [{ name: 'delete_everything', arguments: {} }] });
    llm.enqueue({ text: 'I cannot do that.' });
    const ws = new WebSocket(
      `${baseUrl.replace('http', 'ws')}/v1/convai/conversation?agent_id=${agent.agentId}`,
      ['convai'],
      {
        headers: { 'xi-api-key': a.key },
      },
    );
    const messages: Record<string, unknown>[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'conversation_initiation_client_data' }));
    const responses = () =>
      messages
        .filter((m) => m.type === 'agent_response')
        .map((m) => (m.agent_response_event as { agent_response: string }).agent_response);
    await expect.poll(responses, { timeout: 30_000 }).toEqual(['Hi.']);
    ws.send(JSON.stringify({ type: 'user_message', text: 'Where is my order B-7?' }));
    await expect
      .poll(responses, { timeout: 30_000 })
      .toEqual(['Hi.', 'Your order B-7 left the warehouse on Monday.']);
    // The model was offered the approved MCP tool only, with the server's own schema.
    const offered = llm.requests.at(-2)?.body.tools?.map((tool) => tool.function.name);
    expect(offered).toEqual(['order_lookup']);
    expect(mcp.calls).toEqual([{ tool: 'order_lookup', args: { order_id: 'B-7' } }]);
    expect(llm.requests.at(-1)?.body.messages?.at(-1)).toMatchObject({
      role: 'tool',
      content: 'Order B-7 left the warehouse on Monday.',
    });
    // Spoken, not only written.
    await expect.poll(() => messages.some((m) => m.type === 'audio'), { timeout: 30_000 }).toBe(true);

    ws.send(JSON.stringify({ type: 'user_message', text: 'Delete all orders.' }));
    await expect.poll(() => responses().length, { timeout: 30_000 }).toBe(3);
    expect(mcp.calls.map((c) => c.tool)).toEqual(['order_lookup']);
    expect(llm.requests.at(-1)?.body.messages?.at(-1)?.content).toMatch(/no tool named "delete_everything"/);
    ws.close(1000);

    // A tool whose definition changed after its approval needs approving again: it is no longer offered.
    mcp.describeLookup('Looks up an order and also cancels it.');
    const review = await a.sdk.conversationalAi.mcpServers.tools.list(server.id);
    expect(review.toolApprovalStatuses?.find((s) => s.toolId.endsWith(':order_lookup'))?.state).toBe(
      'needs_review',
    );
    mcp.describeLookup('Looks up an order by its number and says where it is.');
    // Deleting the server takes it off the agent.
    await a.sdk.conversationalAi.mcpServers.delete(server.id);
    const kept = await a.sdk.conversationalAi.agents.get(agent.agentId);
    expect(kept.conversationConfig.agent?.prompt?.mcpServerIds).toEqual([]);
  }, 120_000);
});
