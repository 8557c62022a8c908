import {
  AGENT_CONFIG_DEFAULTS,
  AGENT_PLATFORM_DEFAULTS,
  type AgentResponse,
  type AgentSummary,
  type McpServerResponse,
  type StoredSecret,
  type ToolResponse,
} from '@parla/contracts';

const access = {
  is_creator: true,
  creator_name: 'Ada',
  creator_email: 'ada@example.test',
  role: 'admin',
} as const;

/** An agent as `GET /v1/convai/agents/{id}` answers it: the defaults, named; `overrides` change any field. */
export function makeAgent(overrides: Partial<AgentResponse> = {}): AgentResponse {
  return {
    agent_id: 'ag1',
    name: 'Support',
    conversation_config: structuredClone(AGENT_CONFIG_DEFAULTS),
    platform_settings: structuredClone(AGENT_PLATFORM_DEFAULTS),
    metadata: { created_at_unix_secs: 1_750_000_000, updated_at_unix_secs: 1_750_000_000 },
    phone_numbers: [],
    access_info: access,
    tags: [],
    ...overrides,
  };
}

/** An agent as the list shows it. */
export function makeAgentSummary(overrides: Partial<AgentSummary> = {}): AgentSummary {
  return {
    agent_id: 'ag1',
    name: 'Support',
    voice_id: AGENT_CONFIG_DEFAULTS.tts.voice_id,
    tags: [],
    created_at_unix_secs: 1_750_000_000,
    access_info: access,
    last_call_time_unix_secs: null,
    archived: false,
    ...overrides,
  };
}

/** A webhook tool of the workspace. */
export function makeTool(overrides: Partial<ToolResponse> = {}): ToolResponse {
  return {
    id: 'tool1',
    tool_config: {
      type: 'webhook',
      name: 'order_status',
      description: 'Looks up an order by its number.',
      disable_interruptions: false,
      force_pre_tool_speech: false,
      response_timeout_secs: 20,
      api_schema: {
        url: 'https://api.example.com/orders',
        method: 'GET',
        request_headers: {},
        path_params_schema: {},
        query_params_schema: null,
        request_body_schema: null,
        content_type: 'application/json',
      },
    },
    access_info: access,
    usage_stats: { total_calls: 0, avg_latency_secs: 0 },
    ...overrides,
  };
}

/** A stored secret (never its value). */
export function makeSecret(overrides: Partial<StoredSecret> = {}): StoredSecret {
  return {
    type: 'stored',
    secret_id: 'sec1',
    name: 'Orders key',
    used_by: { tools: [], agents: [], others: [], phone_numbers: [] },
    ...overrides,
  };
}

/** An MCP server as `GET /v1/convai/mcp-servers/{id}` answers it (per-tool approval, no approvals yet). */
export function makeMcpServer(overrides: Partial<McpServerResponse> = {}): McpServerResponse {
  return {
    id: 'mcp1',
    config: {
      approval_policy: 'require_approval_per_tool',
      tool_approval_hashes: [],
      transport: 'STREAMABLE_HTTP',
      url: 'https://mcp.example.com/mcp',
      secret_token: null,
      request_headers: {},
      name: 'Orders',
      description: '',
      force_pre_tool_speech: false,
      disable_interruptions: false,
      response_timeout_secs: 20,
      disable_compression: false,
      tool_config_overrides: [],
    },
    access_info: access,
    dependent_agents: [],
    metadata: { created_at: 1_750_000_000, owner_user_id: 'u1' },
    ...overrides,
  };
}
