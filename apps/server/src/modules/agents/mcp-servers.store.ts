import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type AgentMcpServerRow, type AgentRow, agentMcpServers, agents } from './agents.tables';

/* The MCP servers' queries (issue 28 "MCP servers"). */

export async function insertMcpServer(
  db: Db,
  row: typeof agentMcpServers.$inferInsert,
): Promise<AgentMcpServerRow> {
  const [inserted] = await db.insert(agentMcpServers).values(row).returning();
  if (!inserted) throw new Error('insert into agent_mcp_servers returned no row');
  return inserted;
}

/** One of the workspace's MCP servers (another workspace's reads as absent). */
export async function getWorkspaceMcpServer(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<AgentMcpServerRow | undefined> {
  const [row] = await db
    .select()
    .from(agentMcpServers)
    .where(and(eq(agentMcpServers.workspaceId, workspaceId), eq(agentMcpServers.id, id)));
  return row;
}

export function getWorkspaceMcpServers(
  db: Db,
  workspaceId: string,
  ids: string[],
): Promise<AgentMcpServerRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(agentMcpServers)
    .where(and(eq(agentMcpServers.workspaceId, workspaceId), inArray(agentMcpServers.id, ids)));
}

export function listWorkspaceMcpServers(db: Db, workspaceId: string): Promise<AgentMcpServerRow[]> {
  return db
    .select()
    .from(agentMcpServers)
    .where(eq(agentMcpServers.workspaceId, workspaceId))
    .orderBy(asc(agentMcpServers.createdAt), asc(agentMcpServers.id));
}

export async function countWorkspaceMcpServers(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(agentMcpServers)
    .where(eq(agentMcpServers.workspaceId, workspaceId));
  return row?.n ?? 0;
}

export async function updateMcpServerRow(
  db: Db,
  id: string,
  set: Pick<AgentMcpServerRow, 'config' | 'name'>,
): Promise<AgentMcpServerRow | undefined> {
  const [row] = await db
    .update(agentMcpServers)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(agentMcpServers.id, id))
    .returning();
  return row;
}

export async function deleteMcpServerRow(db: Db, workspaceId: string, id: string): Promise<void> {
  await db
    .delete(agentMcpServers)
    .where(and(eq(agentMcpServers.workspaceId, workspaceId), eq(agentMcpServers.id, id)));
}

/** The workspace's agents whose prompt names this MCP server (`mcp_server_ids`). */
export function agentsUsingMcpServer(db: Db, workspaceId: string, id: string): Promise<AgentRow[]> {
  return db
    .select()
    .from(agents)
    .where(
      and(
        eq(agents.workspaceId, workspaceId),
        sql`(${agents.conversationConfig}->'agent'->'prompt'->'mcp_server_ids') ? ${id}`,
      ),
    )
    .orderBy(agents.createdAt, agents.id);
}

/** The workspace's MCP servers that send this secret (as the bearer token or a header). */
export function mcpServersUsingSecret(
  db: Db,
  workspaceId: string,
  secretId: string,
): Promise<AgentMcpServerRow[]> {
  return db
    .select()
    .from(agentMcpServers)
    .where(
      and(
        eq(agentMcpServers.workspaceId, workspaceId),
        sql`(${agentMcpServers.config}->'secret_token'->>'secret_id' = ${secretId} or exists (select 1 from jsonb_each(${agentMcpServers.config}->'request_headers') h where h.value->>'secret_id' = ${secretId}))`,
      ),
    );
}
