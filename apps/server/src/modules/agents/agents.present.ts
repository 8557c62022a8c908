import {
  AGENT_CONFIG_DEFAULTS,
  type AgentResponse,
  type AgentSummary,
  type ResourceAccessInfo,
  resolveAgentConfig,
  resolvePlatformSettings,
  type StoredSecret,
  type ToolResponse,
} from '@parla/contracts';
import { toUnixSeconds } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { getUser } from '../users';
import type { ResourceCaller } from '../workspaces';
import type { AgentRow, AgentSecretRow, AgentToolRow } from './agents.tables';

/**
 * The caller's relation to an agent or tool (`ResourceAccessInfo`): its creator holds admin; the other
 * members of the workspace edit it (agents are the workspace's, not shared one by one yet).
 */
export class AccessInfo {
  private readonly creators = new Map<string, Promise<{ name: string; email: string }>>();
  constructor(
    private readonly db: Db,
    private readonly caller: ResourceCaller,
  ) {}

  private creator(userId: string | null): Promise<{ name: string; email: string }> {
    if (!userId) return Promise.resolve({ name: '', email: '' });
    let found = this.creators.get(userId);
    if (!found) {
      found = getUser(this.db, userId).then((u) => ({ name: u?.firstName ?? '', email: u?.email ?? '' }));
      this.creators.set(userId, found);
    }
    return found;
  }

  async of(createdBy: string | null): Promise<ResourceAccessInfo> {
    const creator = await this.creator(createdBy);
    const isCreator = createdBy === this.caller.userId;
    return {
      is_creator: isCreator,
      creator_name: creator.name,
      creator_email: creator.email,
      role: isCreator ? 'admin' : 'editor',
    };
  }
}

/** `GetAgentResponseModel`: the whole resolved configuration (defaults filled in). */
export async function toAgentResponse(row: AgentRow, access: AccessInfo): Promise<AgentResponse> {
  return {
    agent_id: row.id,
    name: row.name,
    conversation_config: resolveAgentConfig(row.conversationConfig),
    platform_settings: resolvePlatformSettings(row.platformSettings),
    metadata: {
      created_at_unix_secs: toUnixSeconds(row.createdAt),
      updated_at_unix_secs: toUnixSeconds(row.updatedAt),
    },
    phone_numbers: [],
    access_info: await access.of(row.createdBy),
    tags: row.tags,
  };
}

/** `AgentSummaryResponseModel`. */
export async function toAgentSummary(row: AgentRow, access: AccessInfo): Promise<AgentSummary> {
  return {
    agent_id: row.id,
    name: row.name,
    voice_id: row.conversationConfig.tts?.voice_id ?? AGENT_CONFIG_DEFAULTS.tts.voice_id,
    tags: row.tags,
    created_at_unix_secs: toUnixSeconds(row.createdAt),
    access_info: await access.of(row.createdBy),
    last_call_time_unix_secs: row.lastCallAt ? toUnixSeconds(row.lastCallAt) : null,
    archived: row.platformSettings.archived ?? false,
  };
}

/** `ToolResponseModel`. */
export async function toToolResponse(row: AgentToolRow, access: AccessInfo): Promise<ToolResponse> {
  return {
    id: row.id,
    tool_config: row.config,
    access_info: await access.of(row.createdBy),
    usage_stats: {
      total_calls: row.callCount,
      avg_latency_secs: row.callCount > 0 ? row.totalLatencyMs / row.callCount / 1000 : 0,
    },
  };
}

/** A secret as responses show it: its name and uses, never its value (sealed or not). */
export function toStoredSecret(
  row: AgentSecretRow,
  usedBy: { tools: AgentToolRow[]; agents: AgentRow[] },
  caller: ResourceCaller,
): StoredSecret {
  const dependent = (r: AgentRow | AgentToolRow) => ({
    type: 'available' as const,
    id: r.id,
    name: r.name,
    created_at_unix_secs: toUnixSeconds(r.createdAt),
    access_level: r.createdBy === caller.userId ? ('admin' as const) : ('editor' as const),
  });
  return {
    type: 'stored',
    secret_id: row.id,
    name: row.name,
    used_by: {
      tools: usedBy.tools.map(dependent),
      agents: usedBy.agents.map(dependent),
      others: [],
      phone_numbers: [],
    },
  };
}
