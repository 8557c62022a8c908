import {
  type AddMcpToolApprovalRequest,
  type CreateMcpServerRequest,
  type ListMcpToolsResponse,
  MAX_MCP_SERVERS_PER_WORKSPACE,
  MCP_RESPONSE_TIMEOUT_DEFAULT_SECS,
  type McpApprovalPolicy,
  type McpServerConfig,
  type McpTool,
  type McpToolApprovalStatus,
  type UpdateMcpServerRequest,
} from '@parla/contracts';
import { AppError, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { AddressNotAllowedError, resolvePublicAddresses } from '../../platform/network-address';
import type { ResourceCaller } from '../workspaces';
import { openSecrets } from './agent-tools.service';
import type { AgentDeps } from './agents.context';
import { invalidAt } from './agents.rules';
import { getWorkspaceSecrets, updateAgentRow } from './agents.store';
import type { AgentMcpServerRow } from './agents.tables';
import { type McpEndpoint, McpUnavailableError, mcpToolHash, openMcpSession } from './mcp-client';
import {
  agentsUsingMcpServer,
  countWorkspaceMcpServers,
  deleteMcpServerRow,
  getWorkspaceMcpServer,
  getWorkspaceMcpServers,
  insertMcpServer,
  updateMcpServerRow,
} from './mcp-servers.store';

/*
 * A workspace's MCP servers (issue 28 "MCP servers"; the public API's `conversationalAi.mcpServers`):
 * kept with their approval policy and per-tool approvals; their tools are asked of the server itself.
 * What an agent is offered follows the policy (`offeredMcpTools`): with `auto_approve_all` every tool
 * the server lists; otherwise only a tool approved as `auto_approved` whose definition still hashes to
 * what was approved. A tool that would need a person's approval at each call is not offered: a voice
 * conversation has nobody to ask.
 */

/** Headers the MCP transport sets itself. */
const RESERVED_HEADERS = new Set([
  'content-length',
  'content-type',
  'host',
  'connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
]);

const CONFIG = ['config'] as const;

/** Why an MCP server at a private address is refused, and who can allow it. */
export function privateMcpAddressMessage(address: string): string {
  return (
    `The MCP server's URL points at a private, loopback or reserved address (${address}). This server calls ` +
    'only public internet addresses unless whoever runs it allows private ones (AGENT_TOOL_ALLOW_PRIVATE_URLS=true).'
  );
}

/** Checks an MCP server's URL as webhook tools' are checked (SSRF-safe); answers it trimmed. */
async function checkMcpUrl(deps: AgentDeps, value: string | { secret_id: string }): Promise<string> {
  const problem = (message: string) => invalidAt([...CONFIG, 'url'], message);
  if (typeof value !== 'string')
    throw problem(
      'Give the URL as text; put a credential in secret_token or a request header from a workspace secret.',
    );
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw problem('The URL is not a valid address (e.g. https://mcp.example.com/mcp).');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !deps.production))
    throw problem(
      deps.production ? 'The URL must start with https://.' : 'The URL must start with https:// or http://.',
    );
  if (url.username || url.password)
    throw problem('The URL cannot hold a user name or password; send credentials in secret_token.');
  try {
    await resolvePublicAddresses(url.hostname, deps.settings.allowPrivateToolUrls);
  } catch (error) {
    if (error instanceof AddressNotAllowedError) throw problem(privateMcpAddressMessage(error.address));
    throw problem(`The host ${url.hostname} could not be found.`);
  }
  return value.trim();
}

/** The secrets a server's config names must be the workspace's; reserved headers are refused. */
async function checkSecretsAndHeaders(
  deps: AgentDeps,
  caller: ResourceCaller,
  config: Pick<McpServerConfig, 'secret_token' | 'request_headers'>,
): Promise<void> {
  for (const name of Object.keys(config.request_headers))
    if (RESERVED_HEADERS.has(name.toLowerCase()))
      throw invalidAt(
        [...CONFIG, 'request_headers', name],
        `The header ${name} is set by the MCP transport and cannot be replaced.`,
      );
  const named: { id: string; at: (string | number)[] }[] = [];
  if (config.secret_token)
    named.push({ id: config.secret_token.secret_id, at: [...CONFIG, 'secret_token', 'secret_id'] });
  for (const [name, value] of Object.entries(config.request_headers))
    if (typeof value === 'object')
      named.push({ id: value.secret_id, at: [...CONFIG, 'request_headers', name, 'secret_id'] });
  if (named.length === 0) return;
  const found = new Set(
    (
      await getWorkspaceSecrets(
        deps.db,
        caller.workspaceId,
        named.map((n) => n.id),
      )
    ).map((s) => s.id),
  );
  const missing = named.find((n) => !found.has(n.id));
  if (missing)
    throw invalidAt(
      missing.at,
      `The secret ${missing.id} was not found in this workspace (POST /v1/convai/secrets stores one).`,
    );
}

export async function requireMcpServer(
  deps: Pick<AgentDeps, 'db'>,
  caller: ResourceCaller,
  id: string,
): Promise<AgentMcpServerRow> {
  const row = await getWorkspaceMcpServer(deps.db, caller.workspaceId, id);
  if (!row) throw notFound('The MCP server');
  return row;
}

export async function createMcpServer(
  deps: AgentDeps,
  caller: ResourceCaller,
  body: CreateMcpServerRequest,
): Promise<AgentMcpServerRow> {
  const c = body.config;
  const config: McpServerConfig = {
    approval_policy: c.approval_policy ?? 'require_approval_all',
    tool_approval_hashes: (c.tool_approval_hashes ?? []).map((h) => ({
      tool_name: h.tool_name,
      tool_hash: h.tool_hash,
      approval_policy: h.approval_policy ?? 'auto_approved',
    })),
    transport: c.transport ?? 'SSE',
    url: await checkMcpUrl(deps, c.url),
    secret_token: c.secret_token ?? null,
    request_headers: c.request_headers ?? {},
    name: c.name,
    description: c.description ?? '',
    force_pre_tool_speech: c.force_pre_tool_speech ?? false,
    disable_interruptions: c.disable_interruptions ?? false,
    response_timeout_secs: c.response_timeout_secs ?? MCP_RESPONSE_TIMEOUT_DEFAULT_SECS,
    disable_compression: c.disable_compression ?? false,
    tool_config_overrides: [],
  };
  await checkSecretsAndHeaders(deps, caller, config);
  if ((await countWorkspaceMcpServers(deps.db, caller.workspaceId)) >= MAX_MCP_SERVERS_PER_WORKSPACE)
    throw new AppError(
      'conflict',
      `A workspace has at most ${MAX_MCP_SERVERS_PER_WORKSPACE} MCP servers; delete one first.`,
    );
  const now = deps.clock.now();
  return insertMcpServer(deps.db, {
    id: `mcp_${newId(26)}`,
    workspaceId: caller.workspaceId,
    createdBy: caller.userId,
    name: config.name,
    config,
    createdAt: now,
    updatedAt: now,
  });
}

async function saveConfig(
  deps: AgentDeps,
  row: AgentMcpServerRow,
  config: McpServerConfig,
): Promise<AgentMcpServerRow> {
  const saved = await updateMcpServerRow(deps.db, row.id, { name: config.name, config });
  if (!saved) throw notFound('The MCP server');
  return saved;
}

/** The public API's PATCH: the fields sent change. */
export async function updateMcpServer(
  deps: AgentDeps,
  caller: ResourceCaller,
  id: string,
  body: UpdateMcpServerRequest,
): Promise<AgentMcpServerRow> {
  const row = await requireMcpServer(deps, caller, id);
  const config: McpServerConfig = { ...row.config };
  if (body.approval_policy !== undefined) config.approval_policy = body.approval_policy;
  if (body.transport !== undefined) config.transport = body.transport;
  if (body.secret_token !== undefined) config.secret_token = body.secret_token;
  if (body.request_headers !== undefined) config.request_headers = body.request_headers;
  if (body.description !== undefined) config.description = body.description;
  if (body.force_pre_tool_speech !== undefined) config.force_pre_tool_speech = body.force_pre_tool_speech;
  if (body.disable_interruptions !== undefined) config.disable_interruptions = body.disable_interruptions;
  if (body.response_timeout_secs !== undefined) config.response_timeout_secs = body.response_timeout_secs;
  if (body.disable_compression !== undefined) config.disable_compression = body.disable_compression;
  await checkSecretsAndHeaders(deps, caller, config);
  return saveConfig(deps, row, config);
}

export async function setMcpApprovalPolicy(
  deps: AgentDeps,
  caller: ResourceCaller,
  id: string,
  policy: McpApprovalPolicy,
): Promise<AgentMcpServerRow> {
  const row = await requireMcpServer(deps, caller, id);
  return saveConfig(deps, row, { ...row.config, approval_policy: policy });
}

/** Approves a tool as it is described now (its hash); approving again replaces the approval. */
export async function addMcpToolApproval(
  deps: AgentDeps,
  caller: ResourceCaller,
  id: string,
  body: AddMcpToolApprovalRequest,
): Promise<AgentMcpServerRow> {
  const row = await requireMcpServer(deps, caller, id);
  const hash = mcpToolHash({
    name: body.tool_name,
    description: body.tool_description,
    inputSchema: body.input_schema ?? {},
  });
  const others = row.config.tool_approval_hashes.filter((h) => h.tool_name !== body.tool_name);
  if (others.length >= 200)
    throw new AppError('conflict', 'An MCP server has at most 200 approved tools; withdraw one first.');
  return saveConfig(deps, row, {
    ...row.config,
    tool_approval_hashes: [
      ...others,
      {
        tool_name: body.tool_name,
        tool_hash: hash,
        approval_policy: body.approval_policy ?? 'auto_approved',
      },
    ],
  });
}

export async function removeMcpToolApproval(
  deps: AgentDeps,
  caller: ResourceCaller,
  id: string,
  toolName: string,
): Promise<AgentMcpServerRow> {
  const row = await requireMcpServer(deps, caller, id);
  if (!row.config.tool_approval_hashes.some((h) => h.tool_name === toolName))
    throw notFound(`An approval of the tool ${toolName.slice(0, 128)}`);
  return saveConfig(deps, row, {
    ...row.config,
    tool_approval_hashes: row.config.tool_approval_hashes.filter((h) => h.tool_name !== toolName),
  });
}

/** Deletes a server and takes it off the agents that used it (no agent names a server that is gone). */
export async function deleteMcpServer(deps: AgentDeps, caller: ResourceCaller, id: string): Promise<void> {
  await requireMcpServer(deps, caller, id);
  const users = await agentsUsingMcpServer(deps.db, caller.workspaceId, id);
  await deps.db.transaction(async (tx) => {
    for (const agent of users) {
      const prompt = agent.conversationConfig.agent.prompt;
      await updateAgentRow(tx, agent.id, {
        conversationConfig: {
          ...agent.conversationConfig,
          agent: {
            ...agent.conversationConfig.agent,
            prompt: {
              ...prompt,
              mcp_server_ids: (prompt.mcp_server_ids ?? []).filter((m) => m !== id),
            },
          },
        },
      });
    }
    await deleteMcpServerRow(tx, caller.workspaceId, id);
  });
}

/** How to reach a server, its secrets opened (for the call only: never log or answer them). */
async function endpointOf(
  deps: Pick<AgentDeps, 'db' | 'settings'>,
  row: AgentMcpServerRow,
): Promise<McpEndpoint> {
  const c = row.config;
  const ids = [
    ...(c.secret_token ? [c.secret_token.secret_id] : []),
    ...Object.values(c.request_headers).flatMap((v) => (typeof v === 'object' ? [v.secret_id] : [])),
  ];
  const secrets = await openSecrets(deps, row.workspaceId, ids);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.request_headers))
    headers[name] = typeof value === 'string' ? value : (secrets.get(value.secret_id) ?? '');
  if (c.secret_token) headers.Authorization = `Bearer ${secrets.get(c.secret_token.secret_id) ?? ''}`;
  return {
    url: c.url,
    transport: c.transport,
    headers,
    allowPrivate: deps.settings.allowPrivateToolUrls,
  };
}

/** Asks the server for its tools (one session, closed after). Throws McpUnavailableError with why not. */
export async function fetchMcpTools(
  deps: Pick<AgentDeps, 'db' | 'settings'>,
  row: AgentMcpServerRow,
): Promise<McpTool[]> {
  const session = await openMcpSession(await endpointOf(deps, row));
  try {
    return await session.listTools();
  } finally {
    await session.close();
  }
}

/** Where each tool stands against the server's approvals (`McpToolApprovalStatus`). */
export function approvalStatusesOf(row: AgentMcpServerRow, tools: McpTool[]): McpToolApprovalStatus[] {
  return tools.map((tool) => {
    const approval = row.config.tool_approval_hashes.find((h) => h.tool_name === tool.name);
    const state = !approval
      ? 'not_approved'
      : approval.tool_hash === mcpToolHash(tool)
        ? 'up_to_date'
        : 'needs_review';
    return {
      tool_id: `mcp:${row.id}:${tool.name}`,
      state,
      ...(approval ? { approval_policy: approval.approval_policy } : {}),
    };
  });
}

/**
 * The tools an agent is offered (the approval policy honoured): all with `auto_approve_all`; otherwise
 * those approved `auto_approved` whose definition is still the one approved.
 */
export function offeredMcpTools(row: AgentMcpServerRow, tools: McpTool[]): McpTool[] {
  if (row.config.approval_policy === 'auto_approve_all') return tools;
  const statuses = approvalStatusesOf(row, tools);
  return tools.filter(
    (_, i) => statuses[i]?.state === 'up_to_date' && statuses[i]?.approval_policy === 'auto_approved',
  );
}

/** `GET …/tools`: what the server offers now; a server that cannot be reached is said plainly. */
export async function listMcpServerTools(
  deps: AgentDeps,
  caller: ResourceCaller,
  id: string,
): Promise<ListMcpToolsResponse> {
  const row = await requireMcpServer(deps, caller, id);
  try {
    const tools = await fetchMcpTools(deps, row);
    return {
      success: true,
      tools,
      tool_approval_statuses: approvalStatusesOf(row, tools),
      error_message: null,
    };
  } catch (error) {
    if (!(error instanceof McpUnavailableError)) throw error;
    return { success: false, tools: [], tool_approval_statuses: [], error_message: error.message };
  }
}

/** One of an agent's MCP tools, ready for a conversation: `call` runs it on its server. */
export interface ConversationMcpTool {
  serverId: string;
  serverName: string;
  tool: McpTool;
  timeoutMs: number;
  call(args: Record<string, unknown>, signal: AbortSignal): Promise<{ text: string; isError: boolean }>;
}

/**
 * The approved tools of the agent's MCP servers, asked of each server when the conversation starts (in
 * parallel, within the connect time limit). A server that cannot be reached is left out, with why, so
 * the conversation still starts; each call opens a session of its own, runs within the server's
 * response_timeout_secs and closes it.
 */
export async function loadMcpToolsForConversation(
  deps: Pick<AgentDeps, 'db' | 'settings'>,
  workspaceId: string,
  ids: string[],
): Promise<{ tools: ConversationMcpTool[]; unavailable: { serverId: string; reason: string }[] }> {
  const rows = await getWorkspaceMcpServers(deps.db, workspaceId, ids);
  const ordered = ids.flatMap((id) => rows.filter((r) => r.id === id));
  const unavailable: { serverId: string; reason: string }[] = [];
  const lists = await Promise.all(
    ordered.map(async (row) => {
      try {
        const endpoint = await endpointOf(deps, row);
        const tools = offeredMcpTools(row, await fetchMcpTools(deps, row));
        const timeoutMs = row.config.response_timeout_secs * 1000;
        return tools.map(
          (tool): ConversationMcpTool => ({
            serverId: row.id,
            serverName: row.name,
            tool,
            timeoutMs,
            async call(args, signal) {
              let session: Awaited<ReturnType<typeof openMcpSession>>;
              try {
                session = await openMcpSession(endpoint);
              } catch (error) {
                return { text: (error as Error).message, isError: true };
              }
              try {
                return await session.callTool(tool.name, args, timeoutMs, signal);
              } finally {
                await session.close();
              }
            },
          }),
        );
      } catch (error) {
        unavailable.push({
          serverId: row.id,
          reason: error instanceof Error ? error.message : String(error),
        });
        return [];
      }
    }),
  );
  return { tools: lists.flat(), unavailable };
}
