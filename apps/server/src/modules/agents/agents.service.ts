import {
  AGENT_CONFIG_DEFAULTS,
  AGENT_PLATFORM_DEFAULTS,
  type CreateAgentRequest,
  findModel,
  type ListAgentsQuery,
  mergeAgentConfig,
  type ResolvedAgentPlatformSettings,
  type ResolvedConversationalConfig,
  resolveAgentConfig,
  resolvePlatformSettings,
  type UpdateAgentRequest,
} from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { findDocuments, setAgentDocuments } from '../knowledge-base';
import { resolveSpeakingVoice } from '../voices';
import type { ResourceCaller } from '../workspaces';
import type { AgentDeps } from './agents.context';
import {
  configProblems,
  decodeCursor,
  encodeCursor,
  invalidAt,
  originAllowed,
  transferTargets,
} from './agents.rules';
import {
  deleteAgentRow,
  getAgent,
  getWorkspaceAgent,
  getWorkspaceTools,
  insertAgent,
  listWorkspaceAgents,
  updateAgentRow,
} from './agents.store';
import type { AgentRow } from './agents.tables';
import { getWorkspaceMcpServers } from './mcp-servers.store';

/** A workspace has at most this many agents. */
export const MAX_AGENTS_PER_WORKSPACE = 1000;
/** The name of an agent created without one. */
export const DEFAULT_AGENT_NAME = 'New agent';

const CONFIG = ['conversation_config'] as const;

/** An agent of the caller's workspace; another workspace's is "not found" (never told apart). */
export async function requireAgent(
  deps: Pick<AgentDeps, 'db'>,
  caller: ResourceCaller,
  id: string,
): Promise<AgentRow> {
  const row = await getWorkspaceAgent(deps.db, caller.workspaceId, id);
  if (!row) throw notFound('The agent');
  return row;
}

/**
 * What a saved config must also satisfy against the workspace (issue 28 item 1 "validation of every
 * field"): a voice it can speak with (checked when the request names one), a text-to-speech model of the
 * catalogue, tools of this workspace, transfer targets that are this workspace's agents, and the rules of
 * `configProblems`.
 */
async function checkConfig(
  deps: Pick<AgentDeps, 'db'>,
  caller: ResourceCaller,
  config: ResolvedConversationalConfig,
  given: { voiceId: boolean },
): Promise<void> {
  if (given.voiceId) {
    try {
      await resolveSpeakingVoice(deps.db, caller, config.tts.voice_id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      throw invalidAt(
        [...CONFIG, 'tts', 'voice_id'],
        error.code === 'voice_not_found'
          ? `The voice ${config.tts.voice_id} was not found: choose a premade voice or one of this workspace's.`
          : error.message,
      );
    }
  }
  if (!findModel(config.tts.model_id))
    throw invalidAt(
      [...CONFIG, 'tts', 'model_id'],
      `The model ${config.tts.model_id} is not a text-to-speech model of this server (GET /v1/models lists them).`,
    );
  const toolIds = config.agent.prompt.tool_ids;
  const tools = await getWorkspaceTools(deps.db, caller.workspaceId, toolIds);
  const found = new Set(tools.map((t) => t.id));
  const missing = toolIds.findIndex((id) => !found.has(id));
  if (missing >= 0)
    throw invalidAt(
      [...CONFIG, 'agent', 'prompt', 'tool_ids', missing],
      `The tool ${toolIds[missing]} was not found in this workspace.`,
    );
  const mcpIds = config.agent.prompt.mcp_server_ids;
  const servers = new Set(
    (await getWorkspaceMcpServers(deps.db, caller.workspaceId, mcpIds)).map((m) => m.id),
  );
  const absentServer = mcpIds.findIndex((id) => !servers.has(id));
  if (absentServer >= 0)
    throw invalidAt(
      [...CONFIG, 'agent', 'prompt', 'mcp_server_ids', absentServer],
      `The MCP server ${mcpIds[absentServer]} was not found in this workspace (POST /v1/convai/mcp-servers adds one).`,
    );
  const documents = config.agent.prompt.knowledge_base;
  const kept = new Set(
    (
      await findDocuments(
        deps,
        caller.workspaceId,
        documents.map((d) => d.id),
      )
    ).map((d) => d.id),
  );
  const absent = documents.findIndex((d) => !kept.has(d.id));
  if (absent >= 0)
    throw invalidAt(
      [...CONFIG, 'agent', 'prompt', 'knowledge_base', absent, 'id'],
      `The knowledge-base document ${documents[absent]?.id} was not found in this workspace.`,
    );
  // In the agent's order, so an error points at the tool_ids entry it is about.
  const ordered = toolIds.flatMap((id) => tools.filter((t) => t.id === id).map((t) => t.config));
  const problem = configProblems(config, ordered);
  if (problem) throw problem;
  for (const [index, agentId] of transferTargets(config).entries()) {
    if (!(await getWorkspaceAgent(deps.db, caller.workspaceId, agentId)))
      throw invalidAt(
        [
          ...CONFIG,
          'agent',
          'prompt',
          'built_in_tools',
          'transfer_to_agent',
          'params',
          'transfers',
          index,
          'agent_id',
        ],
        `The agent ${agentId} to transfer to was not found in this workspace.`,
      );
  }
}

/** Creates an agent from what was given over the defaults; answers the stored row. */
export async function createAgent(
  deps: AgentDeps,
  caller: ResourceCaller,
  body: CreateAgentRequest,
): Promise<AgentRow> {
  const config = resolveAgentConfig(body.conversation_config);
  const settings = resolvePlatformSettings(body.platform_settings);
  await checkConfig(deps, caller, config, { voiceId: true });
  const count = await listWorkspaceAgents(deps.db, caller.workspaceId, {
    sortBy: 'created_at',
    direction: 'asc',
    offset: MAX_AGENTS_PER_WORKSPACE - 1,
    limit: 1,
  });
  if (count.length > 0)
    throw new AppError(
      'conflict',
      `A workspace has at most ${MAX_AGENTS_PER_WORKSPACE} agents; delete one first.`,
    );
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await insertAgent(tx, {
      id: `agent_${newId(26)}`,
      workspaceId: caller.workspaceId,
      createdBy: caller.userId,
      name: body.name?.trim() || DEFAULT_AGENT_NAME,
      tags: body.tags ?? [],
      conversationConfig: config,
      platformSettings: settings,
      createdAt: now,
      updatedAt: now,
    });
    await tellKnowledgeBase(tx, row);
    return row;
  });
}

/**
 * Tells the knowledge base which documents the agent uses now (its dependents, and the guard on deleting a
 * used document), in the transaction that saves the agent.
 */
async function tellKnowledgeBase(db: Db, row: AgentRow, deleted = false): Promise<void> {
  const ids = deleted ? [] : row.conversationConfig.agent.prompt.knowledge_base.map((d) => d.id);
  await setAgentDocuments({ db }, row.workspaceId, { id: row.id, name: row.name }, ids);
}

/**
 * `PATCH`: the given fields merge into the stored configuration (`mergeAgentConfig`: sections field by
 * field, lists and values replaced whole), then the result is checked as a whole.
 */
export async function updateAgent(
  deps: AgentDeps,
  caller: ResourceCaller,
  id: string,
  body: UpdateAgentRequest,
): Promise<AgentRow> {
  const row = await requireAgent(deps, caller, id);
  const config = mergeAgentConfig(row.conversationConfig, body.conversation_config, AGENT_CONFIG_DEFAULTS);
  const settings = mergeAgentConfig(row.platformSettings, body.platform_settings, AGENT_PLATFORM_DEFAULTS);
  await checkConfig(deps, caller, config, { voiceId: body.conversation_config?.tts?.voice_id !== undefined });
  return deps.db.transaction(async (tx) => {
    const updated = await updateAgentRow(tx, row.id, {
      conversationConfig: config,
      platformSettings: settings,
      ...(body.name != null ? { name: body.name.trim() || DEFAULT_AGENT_NAME } : {}),
      ...(body.tags != null ? { tags: body.tags } : {}),
    });
    if (!updated) throw notFound('The agent');
    await tellKnowledgeBase(tx, updated);
    return updated;
  });
}

export async function deleteAgent(
  deps: Pick<AgentDeps, 'db'>,
  caller: ResourceCaller,
  id: string,
): Promise<void> {
  const row = await requireAgent(deps, caller, id);
  await deps.db.transaction(async (tx) => {
    if (!(await deleteAgentRow(tx, caller.workspaceId, id))) throw notFound('The agent');
    await tellKnowledgeBase(tx, row, true);
  });
}

/** A copy of an agent in the same workspace: its whole configuration, under the given name or "… (copy)". */
export async function duplicateAgent(
  deps: AgentDeps,
  caller: ResourceCaller,
  id: string,
  name: string | null | undefined,
): Promise<AgentRow> {
  const row = await requireAgent(deps, caller, id);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const copy = await insertAgent(tx, {
      id: `agent_${newId(26)}`,
      workspaceId: caller.workspaceId,
      createdBy: caller.userId,
      name: name?.trim() || `${row.name} (copy)`.slice(0, 200),
      tags: row.tags,
      conversationConfig: row.conversationConfig,
      platformSettings: row.platformSettings,
      createdAt: now,
      updatedAt: now,
    });
    await tellKnowledgeBase(tx, copy);
    return copy;
  });
}

/** A page of the workspace's agents, with the cursor of the next. */
export async function listAgents(
  deps: Pick<AgentDeps, 'db'>,
  caller: ResourceCaller,
  query: ListAgentsQuery,
): Promise<{ rows: AgentRow[]; nextCursor: string | null }> {
  const offset = decodeCursor(query.cursor);
  const rows = await listWorkspaceAgents(deps.db, caller.workspaceId, {
    search: query.search || undefined,
    archived: query.archived,
    createdBy: query.show_only_owned_agents ? caller.userId : undefined,
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

/** Who asks for an agent's widget: maybe a member (a key or session), maybe a page on some origin. */
export interface WidgetAsker {
  caller?: ResourceCaller | undefined;
  origin?: string | undefined;
}

/**
 * The agent a widget may show (history/voices §7 "widget"; el-facts §3 "Widget embed"): a public agent
 * (`enable_auth` off) to anyone from an allowed origin; an agent that needs signed URLs only to members of
 * its workspace. Anything else is "not found", so an agent's existence does not leak.
 */
export async function agentForWidget(
  deps: Pick<AgentDeps, 'db'>,
  agentId: string,
  asker: WidgetAsker,
): Promise<AgentRow> {
  const row = await getAgent(deps.db, agentId);
  if (!row) throw notFound('The agent');
  const member = asker.caller?.workspaceId === row.workspaceId;
  if (!member && row.platformSettings.auth.enable_auth) throw notFound('The agent');
  if (!member && !originAllowed(row.platformSettings.auth, asker.origin))
    throw new AppError(
      'forbidden',
      'This agent may not be embedded on this site: its origin is not in the agent’s allowlist.',
    );
  return row;
}

/** The widget's configuration of an agent (`WidgetConfigResponse`): its appearance and how it starts. */
export function widgetConfigOf(row: AgentRow) {
  const settings: ResolvedAgentPlatformSettings = resolvePlatformSettings(row.platformSettings);
  const config: ResolvedConversationalConfig = resolveAgentConfig(row.conversationConfig);
  return {
    ...settings.widget,
    language: config.agent.language,
    first_message: config.agent.first_message,
    text_only: config.conversation.text_only,
    supported_language_overrides: [],
  };
}

/** The page a visitor opens to talk to the agent (the web app's talk-to page). */
export function agentLinkUrl(deps: Pick<AgentDeps, 'publicUrl'>, agentId: string): string {
  return `${deps.publicUrl}/app/conversational-ai/talk-to?agent_id=${encodeURIComponent(agentId)}`;
}
