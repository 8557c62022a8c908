import type { ListToolsQuery, ToolConfig, ToolRequest, UpdateSecretRequest } from '@parla/contracts';
import { AppError, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { AddressNotAllowedError, resolvePublicAddresses } from '../../platform/network-address';
import { openSecret, sealSecret } from '../../platform/secrets';
import type { ResourceCaller } from '../workspaces';
import { type AgentDeps, sealingKeyOf } from './agents.context';
import { decodeCursor, encodeCursor, invalidAt } from './agents.rules';
import { requireAgent } from './agents.service';
import {
  agentsUsingTools,
  deleteSecretRow,
  deleteToolRow,
  getWorkspaceSecret,
  getWorkspaceSecrets,
  getWorkspaceTool,
  insertSecret,
  insertTool,
  listWorkspaceSecrets,
  listWorkspaceTools,
  toolsUsingSecret,
  updateAgentRow,
  updateSecretRow,
  updateToolRow,
} from './agents.store';
import type { AgentRow, AgentSecretRow, AgentToolRow } from './agents.tables';
import { mcpServersUsingSecret } from './mcp-servers.store';

/** A workspace has at most this many tools and this many secrets. */
export const MAX_TOOLS_PER_WORKSPACE = 500;
export const MAX_SECRETS_PER_WORKSPACE = 200;

/** Headers a tool call sets itself, which a tool's own headers may not replace. */
const RESERVED_HEADERS = new Set([
  'content-length',
  'host',
  'connection',
  'transfer-encoding',
  'upgrade',
  'te',
]);

const API_SCHEMA = ['tool_config', 'api_schema'] as const;

/**
 * Why a tool URL at a private address is refused, and how it is allowed (the same words at saving and at
 * call time): only public addresses unless whoever runs the server allows private ones.
 */
export function privateToolAddressMessage(address: string): string {
  return (
    `The tool's URL points at a private, loopback or reserved address (${address}). This server calls only ` +
    'public internet addresses unless whoever runs it allows private ones: if your endpoint is on your own ' +
    "network, ask the server's operator to set AGENT_TOOL_ALLOW_PRIVATE_URLS=true."
  );
}

/**
 * Checks a webhook tool's URL when it is saved (issue 28 item 4 "SSRF-safe"): https, or http outside
 * production; `{placeholders}` in the path and query only; no user name or password; a host that
 * resolves, and only to public addresses unless AGENT_TOOL_ALLOW_PRIVATE_URLS. Calls check again when they
 * connect (the address a name resolves to can change). Answers the URL as given, trimmed.
 */
export async function checkToolUrl(
  value: string,
  options: { production: boolean; allowPrivate: boolean },
): Promise<string> {
  const problem = (message: string) => invalidAt([...API_SCHEMA, 'url'], message);
  const trimmed = value.trim();
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(trimmed)?.[0] ?? trimmed;
  if (authority.includes('{'))
    throw problem('Placeholders like {name} may stand in the path or query of the URL, not in its host.');
  let url: URL;
  try {
    url = new URL(trimmed.replace(/\{[^{}]+\}/g, 'x'));
  } catch {
    throw problem('The URL is not a valid address (e.g. https://api.example.com/orders/{order_id}).');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !options.production))
    throw problem(
      options.production
        ? 'The URL must start with https://.'
        : 'The URL must start with https:// or http://.',
    );
  if (url.username || url.password)
    throw problem('The URL cannot hold a user name or password; send credentials in a header from a secret.');
  try {
    await resolvePublicAddresses(url.hostname, options.allowPrivate);
  } catch (error) {
    if (error instanceof AddressNotAllowedError) throw problem(privateToolAddressMessage(error.address));
    throw problem(`The host ${url.hostname} could not be found.`);
  }
  return trimmed;
}

/** The secret ids a tool's headers name. */
export function secretIdsOf(config: ToolConfig): string[] {
  if (config.type !== 'webhook') return [];
  return Object.values(config.api_schema.request_headers).flatMap((v) =>
    typeof v === 'object' && 'secret_id' in v ? [v.secret_id] : [],
  );
}

/** A tool's configuration checked against the server and the workspace; answers it as it is kept. */
async function checkTool(deps: AgentDeps, caller: ResourceCaller, config: ToolConfig): Promise<ToolConfig> {
  if (config.type !== 'webhook') return config;
  const url = await checkToolUrl(config.api_schema.url, {
    production: deps.production,
    allowPrivate: deps.settings.allowPrivateToolUrls,
  });
  for (const name of Object.keys(config.api_schema.request_headers)) {
    if (RESERVED_HEADERS.has(name.toLowerCase()))
      throw invalidAt(
        [...API_SCHEMA, 'request_headers', name],
        `The header ${name} is set by the server and cannot be replaced.`,
      );
  }
  const ids = secretIdsOf(config);
  const found = await getWorkspaceSecrets(deps.db, caller.workspaceId, ids);
  for (const [name, value] of Object.entries(config.api_schema.request_headers)) {
    if (typeof value === 'object' && 'secret_id' in value && !found.some((s) => s.id === value.secret_id))
      throw invalidAt(
        [...API_SCHEMA, 'request_headers', name, 'secret_id'],
        `The secret ${value.secret_id} was not found in this workspace (POST /v1/convai/secrets stores one).`,
      );
  }
  return { ...config, api_schema: { ...config.api_schema, url } };
}

export async function requireTool(
  deps: Pick<AgentDeps, 'db'>,
  caller: ResourceCaller,
  id: string,
): Promise<AgentToolRow> {
  const row = await getWorkspaceTool(deps.db, caller.workspaceId, id);
  if (!row) throw notFound('The tool');
  return row;
}

export async function createTool(
  deps: AgentDeps,
  caller: ResourceCaller,
  body: ToolRequest,
): Promise<AgentToolRow> {
  const config = await checkTool(deps, caller, body.tool_config);
  const existing = await listWorkspaceTools(deps.db, caller.workspaceId, {
    sortBy: 'created_at',
    direction: 'asc',
    offset: MAX_TOOLS_PER_WORKSPACE - 1,
    limit: 1,
  });
  if (existing.length > 0)
    throw new AppError(
      'conflict',
      `A workspace has at most ${MAX_TOOLS_PER_WORKSPACE} tools; delete one first.`,
    );
  const now = deps.clock.now();
  return insertTool(deps.db, {
    id: `tool_${newId(26)}`,
    workspaceId: caller.workspaceId,
    createdBy: caller.userId,
    type: config.type,
    name: config.name,
    config,
    createdAt: now,
    updatedAt: now,
  });
}

/** Replaces a tool's configuration (the public API's PATCH sends the whole tool). */
export async function updateTool(
  deps: AgentDeps,
  caller: ResourceCaller,
  id: string,
  body: ToolRequest,
): Promise<AgentToolRow> {
  await requireTool(deps, caller, id);
  const config = await checkTool(deps, caller, body.tool_config);
  const row = await updateToolRow(deps.db, id, { type: config.type, name: config.name, config });
  if (!row) throw notFound('The tool');
  return row;
}

/**
 * Deletes a tool. While agents use it the deletion is refused (409) unless `force`, which also takes it off
 * those agents' `tool_ids`, so no agent names a tool that is gone.
 */
export async function deleteTool(
  deps: AgentDeps,
  caller: ResourceCaller,
  id: string,
  force: boolean,
): Promise<void> {
  await requireTool(deps, caller, id);
  const users = await agentsUsingTools(deps.db, caller.workspaceId, [id]);
  if (users.length > 0 && !force)
    throw new AppError(
      'conflict',
      `The tool is used by ${users.length === 1 ? 'the agent' : `${users.length} agents, among them`} ${users[0]?.name}; remove it from them first, or delete with force=true.`,
    );
  await deps.db.transaction(async (tx) => {
    for (const agent of users) {
      const prompt = agent.conversationConfig.agent.prompt;
      await updateAgentRow(tx, agent.id, {
        conversationConfig: {
          ...agent.conversationConfig,
          agent: {
            ...agent.conversationConfig.agent,
            prompt: { ...prompt, tool_ids: prompt.tool_ids.filter((t) => t !== id) },
          },
        },
      });
    }
    await deleteToolRow(tx, caller.workspaceId, id);
  });
}

export async function listTools(
  deps: Pick<AgentDeps, 'db'>,
  caller: ResourceCaller,
  query: ListToolsQuery,
): Promise<{ rows: AgentToolRow[]; nextCursor: string | null }> {
  const offset = decodeCursor(query.cursor);
  let ids: string[] | undefined;
  if (query.used_by_agent_id) {
    const agent = await requireAgent(deps, caller, query.used_by_agent_id);
    ids = agent.conversationConfig.agent.prompt.tool_ids;
  }
  const rows = await listWorkspaceTools(deps.db, caller.workspaceId, {
    search: query.search || undefined,
    types: query.types === undefined ? undefined : Array.isArray(query.types) ? query.types : [query.types],
    ids,
    sortBy: query.sort_by,
    direction: query.sort_direction,
    offset,
    limit: query.page_size,
  });
  const more = rows.length > query.page_size;
  return {
    rows: rows.slice(0, query.page_size),
    nextCursor: more ? encodeCursor(offset + query.page_size) : null,
  };
}

// Secrets --------------------------------------------------------------------------------------------------

export async function requireSecret(
  deps: Pick<AgentDeps, 'db'>,
  caller: ResourceCaller,
  id: string,
): Promise<AgentSecretRow> {
  const row = await getWorkspaceSecret(deps.db, caller.workspaceId, id);
  if (!row) throw notFound('The secret');
  return row;
}

const nameTaken = (name: string) =>
  new AppError('conflict', `The workspace already has a secret called ${name}; choose another name.`);

/** Stores a secret, sealed; its value is never answered again. */
export async function createSecret(
  deps: AgentDeps,
  caller: ResourceCaller,
  body: { name: string; value: string },
): Promise<AgentSecretRow> {
  const existing = await listWorkspaceSecrets(deps.db, caller.workspaceId, {
    offset: MAX_SECRETS_PER_WORKSPACE - 1,
    limit: 1,
  });
  if (existing.length > 0)
    throw new AppError(
      'conflict',
      `A workspace has at most ${MAX_SECRETS_PER_WORKSPACE} secrets; delete one first.`,
    );
  const now = deps.clock.now();
  const row = await insertSecret(deps.db, {
    id: `secret_${newId(26)}`,
    workspaceId: caller.workspaceId,
    createdBy: caller.userId,
    name: body.name,
    valueSealed: sealSecret(body.value, await sealingKeyOf(deps)),
    createdAt: now,
    updatedAt: now,
  });
  if (!row) throw nameTaken(body.name);
  return row;
}

export async function updateSecret(
  deps: AgentDeps,
  caller: ResourceCaller,
  id: string,
  body: UpdateSecretRequest,
): Promise<AgentSecretRow> {
  await requireSecret(deps, caller, id);
  const row = await updateSecretRow(deps.db, id, {
    name: body.name,
    valueSealed: sealSecret(body.value, await sealingKeyOf(deps)),
  });
  if (row === 'name_taken') throw nameTaken(body.name);
  if (!row) throw notFound('The secret');
  return row;
}

/** Deletes a secret; refused (409) while a tool sends it, so no call goes out without its credential. */
export async function deleteSecret(deps: AgentDeps, caller: ResourceCaller, id: string): Promise<void> {
  await requireSecret(deps, caller, id);
  const servers = await mcpServersUsingSecret(deps.db, caller.workspaceId, id);
  if (servers.length > 0)
    throw new AppError(
      'conflict',
      `The secret is used by the MCP server ${servers[0]?.name}${servers.length > 1 ? ` and ${servers.length - 1} more` : ''}; change them first.`,
    );
  const users = await toolsUsingSecret(deps.db, caller.workspaceId, id);
  if (users.length > 0)
    throw new AppError(
      'conflict',
      `The secret is used by the tool ${users[0]?.name}${users.length > 1 ? ` and ${users.length - 1} more` : ''}; change them first.`,
    );
  await deleteSecretRow(deps.db, caller.workspaceId, id);
}

export async function listSecrets(
  deps: Pick<AgentDeps, 'db'>,
  caller: ResourceCaller,
  query: { page_size: number; search?: string | undefined; cursor?: string | undefined },
): Promise<{ rows: AgentSecretRow[]; nextCursor: string | null }> {
  const offset = decodeCursor(query.cursor);
  const rows = await listWorkspaceSecrets(deps.db, caller.workspaceId, {
    search: query.search || undefined,
    offset,
    limit: query.page_size,
  });
  const more = rows.length > query.page_size;
  return {
    rows: rows.slice(0, query.page_size),
    nextCursor: more ? encodeCursor(offset + query.page_size) : null,
  };
}

/** The tools that send a secret, and the agents that use those tools (a secret's `used_by`). */
export async function secretDependents(
  deps: Pick<AgentDeps, 'db'>,
  workspaceId: string,
  secretId: string,
): Promise<{ tools: AgentToolRow[]; agents: AgentRow[] }> {
  const tools = await toolsUsingSecret(deps.db, workspaceId, secretId);
  const agents = await agentsUsingTools(
    deps.db,
    workspaceId,
    tools.map((t) => t.id),
  );
  return { tools, agents };
}

/** The values of the workspace's secrets these ids name, opened (for a tool call's headers only). */
export async function openSecrets(
  deps: Pick<AgentDeps, 'db' | 'settings'>,
  workspaceId: string,
  ids: string[],
): Promise<Map<string, string>> {
  const rows = await getWorkspaceSecrets(deps.db, workspaceId, [...new Set(ids)]);
  if (rows.length === 0) return new Map();
  const key = await sealingKeyOf(deps);
  return new Map(rows.map((row) => [row.id, openSecret(row.valueSealed, key)]));
}
