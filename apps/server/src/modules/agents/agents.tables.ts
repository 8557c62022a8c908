import type {
  McpServerConfig,
  ResolvedAgentPlatformSettings,
  ResolvedConversationalConfig,
  ToolConfig,
} from '@parla/contracts';
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * A workspace's conversational agents (issue 28 item 1). The configuration is kept resolved (every default
 * filled in at creation, as the public API keeps it), so an update merges into exactly what GET showed.
 */
export const agents = pgTable(
  'agents',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    tags: jsonb('tags').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    conversationConfig: jsonb('conversation_config').$type<ResolvedConversationalConfig>().notNull(),
    platformSettings: jsonb('platform_settings').$type<ResolvedAgentPlatformSettings>().notNull(),
    /** When a conversation with it last started (the conversations module tells, through the front door). */
    lastCallAt: timestamp('last_call_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agents_workspace_idx').on(t.workspaceId, t.createdAt)],
);
export type AgentRow = typeof agents.$inferSelect;

/** A workspace's agent tools (issue 28 item 4): webhook, client or system, referenced by agents' tool_ids. */
export const agentTools = pgTable(
  'agent_tools',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** webhook | client | system (the config's `type`, kept apart for listing by type). */
    type: text('type').notNull(),
    name: text('name').notNull(),
    config: jsonb('config').$type<ToolConfig>().notNull(),
    /** Calls made by conversations, and their summed latency (usage_stats). */
    callCount: integer('call_count').notNull().default(0),
    totalLatencyMs: bigint('total_latency_ms', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agent_tools_workspace_idx').on(t.workspaceId, t.createdAt)],
);
export type AgentToolRow = typeof agentTools.$inferSelect;

/**
 * A workspace's secrets for tools (issue 28 item 4): sealed with AES-256-GCM (platform/secrets.ts), because
 * a tool call must send the value; no response ever carries it.
 */
export const agentSecrets = pgTable(
  'agent_secrets',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    valueSealed: text('value_sealed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('agent_secrets_workspace_name_idx').on(t.workspaceId, t.name)],
);
export type AgentSecretRow = typeof agentSecrets.$inferSelect;

/** The server's own key that seals agent secrets when AGENT_SECRETS_KEY is not set (one row). */
export const agentSealingKeys = pgTable('agent_sealing_keys', {
  id: text('id').primaryKey(),
  key: text('key').notNull(),
});

/**
 * A workspace's MCP servers (issue 28 "MCP servers", the integrations): where agents' MCP tools are, how
 * to reach them (secrets named by id, opened at call time) and which of their tools are approved.
 */
export const agentMcpServers = pgTable(
  'agent_mcp_servers',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    config: jsonb('config').$type<McpServerConfig>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agent_mcp_servers_workspace_idx').on(t.workspaceId, t.createdAt)],
);
export type AgentMcpServerRow = typeof agentMcpServers.$inferSelect;
