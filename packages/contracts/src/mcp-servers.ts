import { z } from 'zod';
import { ResourceAccessInfo } from './agents';
import { defineRoute } from './routes';

/*
 * MCP servers, the conversational agents' "integrations" (issue 28; history/voices §7 "MCP servers"). The
 * shapes follow `conversationalAi.mcpServers` of `@elevenlabs/elevenlabs-js` (`McpServerRequestModel`,
 * `McpServerConfigInput`/`Output`, `McpServerConfigUpdateRequestModel`, `McpServerResponseModel`,
 * `McpServersResponseModel`, `ListMcpToolsResponseModel`, `McpApprovalPolicyUpdateRequestModel`,
 * `McpToolAddApprovalRequestModel`). A secret (the bearer token, a header) is named by the id of a
 * workspace secret (`POST /v1/convai/secrets`) and never answered. Per-tool config overrides
 * (`toolConfigs`), auth connections, `_meta` entries and environments are not served.
 */

export const MCP_APPROVAL_POLICIES = [
  'auto_approve_all',
  'require_approval_all',
  'require_approval_per_tool',
] as const;
export type McpApprovalPolicy = (typeof MCP_APPROVAL_POLICIES)[number];
export const McpApprovalPolicy = z.enum(MCP_APPROVAL_POLICIES, {
  error: 'approval_policy is auto_approve_all, require_approval_all or require_approval_per_tool.',
});

export const MCP_TRANSPORTS = ['SSE', 'STREAMABLE_HTTP'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];
export const McpTransport = z.enum(MCP_TRANSPORTS, { error: 'transport is SSE or STREAMABLE_HTTP.' });

export const McpToolApprovalPolicy = z.enum(['auto_approved', 'requires_approval'], {
  error: 'A tool approval is auto_approved or requires_approval.',
});
export type McpToolApprovalPolicy = z.infer<typeof McpToolApprovalPolicy>;

/** The longest wait for one tool call (the public API's bounds, 5 to 300 seconds). */
export const MCP_RESPONSE_TIMEOUT_DEFAULT_SECS = 20;
/** A workspace has at most this many MCP servers. */
export const MAX_MCP_SERVERS_PER_WORKSPACE = 50;

const SecretLocator = z.object({ secret_id: z.string().trim().min(1).max(64) }).strict();
const HeaderName = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'A header name is a token of letters, digits and -.');
const HeaderValue = z.union(
  [
    z
      .string()
      .max(8000, 'A header value is at most 8,000 characters.')
      .regex(/^[^\r\n\0]*$/, 'A header value is one line.'),
    SecretLocator,
  ],
  { error: 'A header is a text value or {"secret_id": "…"} naming a workspace secret.' },
);

const McpUrl = z.union([z.string().trim().min(1, 'Give the MCP server’s URL.').max(2000), SecretLocator], {
  error: 'url is the MCP server’s address (https://…).',
});

const ToolApprovalHash = z.object({
  tool_name: z.string().min(1).max(128),
  tool_hash: z.string().regex(/^[0-9a-f]{64}$/, 'tool_hash is a SHA-256 in hex.'),
  approval_policy: McpToolApprovalPolicy.optional(),
});

const ConfigFields = {
  approval_policy: McpApprovalPolicy.optional(),
  transport: McpTransport.optional(),
  secret_token: SecretLocator.nullable().optional(),
  request_headers: z
    .record(HeaderName, HeaderValue)
    .refine((h) => Object.keys(h).length <= 20, 'At most 20 headers.')
    .optional(),
  description: z.string().max(2000, 'A description is at most 2,000 characters.').optional(),
  force_pre_tool_speech: z.boolean().optional(),
  disable_interruptions: z.boolean().optional(),
  response_timeout_secs: z
    .number()
    .int()
    .min(5, 'response_timeout_secs is 5 to 300.')
    .max(300, 'response_timeout_secs is 5 to 300.')
    .optional(),
  disable_compression: z.boolean().optional(),
};

/** `McpServerConfigInput`. */
export const McpServerConfigInput = z.object({
  ...ConfigFields,
  url: McpUrl,
  name: z.string().trim().min(1, 'Name the MCP server.').max(200, 'A name is at most 200 characters.'),
  tool_approval_hashes: z.array(ToolApprovalHash).max(200).optional(),
});
export type McpServerConfigInput = z.output<typeof McpServerConfigInput>;

/** `McpServerRequestModel`. */
export const CreateMcpServerRequest = z.object({ config: McpServerConfigInput });
export type CreateMcpServerRequest = z.output<typeof CreateMcpServerRequest>;

/** `McpServerConfigUpdateRequestModel`: the fields sent change, the rest stays. */
export const UpdateMcpServerRequest = z.object(ConfigFields);
export type UpdateMcpServerRequest = z.output<typeof UpdateMcpServerRequest>;

/** What is kept and answered (`McpServerConfigOutput`): every field present. */
export interface McpServerConfig {
  approval_policy: McpApprovalPolicy;
  tool_approval_hashes: { tool_name: string; tool_hash: string; approval_policy: McpToolApprovalPolicy }[];
  transport: McpTransport;
  url: string;
  secret_token: { secret_id: string } | null;
  request_headers: Record<string, string | { secret_id: string }>;
  name: string;
  description: string;
  force_pre_tool_speech: boolean;
  disable_interruptions: boolean;
  response_timeout_secs: number;
  disable_compression: boolean;
  tool_config_overrides: never[];
}

const Dependent = z.object({
  type: z.literal('available'),
  id: z.string(),
  name: z.string(),
  created_at_unix_secs: z.number().int(),
  access_level: z.enum(['admin', 'editor', 'commenter', 'viewer']),
});

/** `McpServerResponseModel`. */
export const McpServerResponse = z
  .object({
    id: z.string(),
    config: z.custom<McpServerConfig>(),
    access_info: ResourceAccessInfo,
    dependent_agents: z.array(Dependent),
    metadata: z.object({ created_at: z.number().int(), owner_user_id: z.string().nullable() }),
  })
  .meta({ id: 'McpServer' });
export type McpServerResponse = z.infer<typeof McpServerResponse>;

/** An MCP tool as the server lists it (MCP's `Tool`). */
export const McpTool = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: z.record(z.string(), z.unknown()).optional(),
});
export type McpTool = z.infer<typeof McpTool>;

/** `McpToolApprovalStatus`. */
export const McpToolApprovalStatus = z.object({
  tool_id: z.string(),
  state: z.enum(['up_to_date', 'needs_review', 'not_approved']),
  approval_policy: McpToolApprovalPolicy.optional(),
});
export type McpToolApprovalStatus = z.infer<typeof McpToolApprovalStatus>;

/** `ListMcpToolsResponseModel`. */
export const ListMcpToolsResponse = z.object({
  success: z.boolean(),
  tools: z.array(McpTool),
  tool_approval_statuses: z.array(McpToolApprovalStatus),
  error_message: z.string().nullable(),
});
export type ListMcpToolsResponse = z.infer<typeof ListMcpToolsResponse>;

/** `McpToolAddApprovalRequestModel`. */
export const AddMcpToolApprovalRequest = z.object({
  tool_name: z.string().min(1, 'Name the tool to approve.').max(128),
  tool_description: z.string().max(10_000),
  input_schema: z.record(z.string(), z.unknown()).optional(),
  approval_policy: McpToolApprovalPolicy.optional(),
});
export type AddMcpToolApprovalRequest = z.output<typeof AddMcpToolApprovalRequest>;

const McpServerParams = z.object({ mcp_server_id: z.string().min(1).max(64) });

export const listMcpServersRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/mcp-servers',
  summary: 'The workspace’s MCP servers',
  tags: ['agents'],
  response: z.object({ mcp_servers: z.array(McpServerResponse) }),
});

export const createMcpServerRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/mcp-servers',
  summary: 'Add an MCP server agents may use',
  tags: ['agents'],
  body: CreateMcpServerRequest,
  response: McpServerResponse,
});

export const getMcpServerRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/mcp-servers/:mcp_server_id',
  summary: 'An MCP server',
  tags: ['agents'],
  params: McpServerParams,
  response: McpServerResponse,
});

export const updateMcpServerRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/convai/mcp-servers/:mcp_server_id',
  summary: 'Change an MCP server’s settings',
  tags: ['agents'],
  params: McpServerParams,
  body: UpdateMcpServerRequest,
  response: McpServerResponse,
});

export const deleteMcpServerRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/convai/mcp-servers/:mcp_server_id',
  summary: 'Delete an MCP server (taken off the agents that use it)',
  tags: ['agents'],
  params: McpServerParams,
  response: z.object({ status: z.literal('ok') }),
});

export const listMcpServerToolsRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/mcp-servers/:mcp_server_id/tools',
  summary: 'The tools the MCP server offers, asked of it now',
  tags: ['agents'],
  params: McpServerParams,
  query: z.object({ environment: z.string().max(100).optional() }),
  response: ListMcpToolsResponse,
});

export const updateMcpApprovalPolicyRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/convai/mcp-servers/:mcp_server_id/approval-policy',
  summary: 'Set an MCP server’s approval policy',
  tags: ['agents'],
  params: McpServerParams,
  body: z.object({ approval_policy: McpApprovalPolicy }),
  response: McpServerResponse,
});

export const addMcpToolApprovalRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/mcp-servers/:mcp_server_id/tool-approvals',
  summary: 'Approve one of an MCP server’s tools, as it is defined now',
  tags: ['agents'],
  params: McpServerParams,
  body: AddMcpToolApprovalRequest,
  response: McpServerResponse,
});

export const deleteMcpToolApprovalRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/convai/mcp-servers/:mcp_server_id/tool-approvals/:tool_name',
  summary: 'Withdraw the approval of an MCP server’s tool',
  tags: ['agents'],
  params: McpServerParams.extend({ tool_name: z.string().min(1).max(128) }),
  response: McpServerResponse,
});
