import {
  type ClientToolConfig,
  type ResolvedAgentPlatformSettings,
  type ResolvedConversationalConfig,
  resolveAgentConfig,
  resolvePlatformSettings,
  type ToolConfig,
  type WebhookToolConfig,
} from '@parla/contracts';
import { openSecrets, secretIdsOf } from './agent-tools.service';
import type { AgentDeps } from './agents.context';
import { addToolCall, getAgent, getWorkspaceTools, touchAgentCall } from './agents.store';
import { type ConversationMcpTool, loadMcpToolsForConversation } from './mcp-servers.service';

export type { ConversationMcpTool } from './mcp-servers.service';

/** A header of a webhook tool as a call sends it: a value (secrets already opened) or a dynamic variable. */
export type ToolCallHeader = { value: string } | { variableName: string };

/** One of an agent's tools, ready for a conversation. */
export type ConversationTool =
  | { id: string; type: 'webhook'; config: WebhookToolConfig; headers: Record<string, ToolCallHeader> }
  | { id: string; type: 'client'; config: ClientToolConfig }
  | { id: string; type: 'system'; config: Extract<ToolConfig, { type: 'system' }> };

/** What a conversation runs with (issue 28 item 2): everything about one agent, resolved. */
export interface ConversationAgent {
  agentId: string;
  name: string;
  /** The agent's workspace: conversations are that workspace's, metered and kept there. */
  workspaceId: string;
  /** Who made it (the public API bills unauthenticated agents' use to their creator); null if they left. */
  createdBy: string | null;
  config: ResolvedConversationalConfig;
  platformSettings: ResolvedAgentPlatformSettings;
  /** The tools of `config.agent.prompt.tool_ids`, in that order (the built-in ones are in the config). */
  tools: ConversationTool[];
  /** The approved tools of the agent's MCP servers (`mcp_server_ids`), as the servers list them now. */
  mcpTools: ConversationMcpTool[];
  /** The agent's MCP servers that could not be reached when the conversation started, and why. */
  mcpUnavailable: { serverId: string; reason: string }[];
  /** The knowledge-base documents attached, with their usage mode. */
  knowledgeBase: { id: string; name: string; type: string; usageMode: 'prompt' | 'auto' }[];
}

/**
 * An agent as a conversation needs it, or null when there is none with this id. A webhook tool's secret
 * headers come with their values opened, for the call only: never log or answer them.
 */
export async function loadAgentForConversation(
  deps: Pick<AgentDeps, 'db' | 'settings'>,
  agentId: string,
): Promise<ConversationAgent | null> {
  const row = await getAgent(deps.db, agentId);
  if (!row) return null;
  const config = resolveAgentConfig(row.conversationConfig);
  const platformSettings = resolvePlatformSettings(row.platformSettings);
  const ids = config.agent.prompt.tool_ids;
  const rows = await getWorkspaceTools(deps.db, row.workspaceId, ids);
  const ordered = ids.flatMap((id) => rows.filter((r) => r.id === id));
  const secrets = await openSecrets(
    deps,
    row.workspaceId,
    ordered.flatMap((r) => secretIdsOf(r.config)),
  );
  const tools = ordered.map((r): ConversationTool => {
    const tool = r.config;
    if (tool.type === 'webhook') {
      const headers: Record<string, ToolCallHeader> = {};
      for (const [name, value] of Object.entries(tool.api_schema.request_headers)) {
        if (typeof value === 'string') headers[name] = { value };
        else if ('secret_id' in value) headers[name] = { value: secrets.get(value.secret_id) ?? '' };
        else headers[name] = { variableName: value.variable_name };
      }
      return { id: r.id, type: 'webhook', config: tool, headers };
    }
    if (tool.type === 'client') return { id: r.id, type: 'client', config: tool };
    return { id: r.id, type: 'system', config: tool };
  });
  const mcp = await loadMcpToolsForConversation(deps, row.workspaceId, config.agent.prompt.mcp_server_ids);
  return {
    agentId: row.id,
    name: row.name,
    workspaceId: row.workspaceId,
    createdBy: row.createdBy,
    config,
    platformSettings,
    tools,
    mcpTools: mcp.tools,
    mcpUnavailable: mcp.unavailable,
    knowledgeBase: config.agent.prompt.knowledge_base.map((d) => ({
      id: d.id,
      name: d.name,
      type: d.type,
      usageMode: d.usage_mode,
    })),
  };
}

/** Notes that a conversation with the agent started (the list's `last_call_time_unix_secs`). */
export async function recordAgentCall(deps: Pick<AgentDeps, 'db' | 'clock'>, agentId: string): Promise<void> {
  await touchAgentCall(deps.db, agentId, deps.clock.now());
}

/** Counts one call of a tool and its latency (the tool's `usage_stats`). */
export async function recordToolCall(
  deps: Pick<AgentDeps, 'db'>,
  toolId: string,
  latencyMs: number,
): Promise<void> {
  await addToolCall(deps.db, toolId, latencyMs);
}
