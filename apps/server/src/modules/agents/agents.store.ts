import { and, asc, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import {
  type AgentRow,
  type AgentSecretRow,
  type AgentToolRow,
  agentSealingKeys,
  agentSecrets,
  agents,
  agentTools,
} from './agents.tables';

/** `%` and `_` of a search are letters, not wildcards. */
function containing(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// Agents ---------------------------------------------------------------------------------------------------

export async function insertAgent(db: Db, row: typeof agents.$inferInsert): Promise<AgentRow> {
  const [inserted] = await db.insert(agents).values(row).returning();
  if (!inserted) throw new Error('insert into agents returned no row');
  return inserted;
}

/** An agent of this workspace (another workspace's reads as absent). */
export async function getWorkspaceAgent(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<AgentRow | undefined> {
  const [row] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.workspaceId, workspaceId), eq(agents.id, id)));
  return row;
}

/** An agent by id alone: the public widget and the conversation socket find it before any caller is known. */
export async function getAgent(db: Db, id: string): Promise<AgentRow | undefined> {
  const [row] = await db.select().from(agents).where(eq(agents.id, id));
  return row;
}

export interface AgentListing {
  search?: string | undefined;
  archived?: boolean | undefined;
  createdBy?: string | undefined;
  sortBy: 'name' | 'created_at' | 'call_count_7d';
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** A page of the workspace's agents; one more than `limit` is read to know whether more follow. */
export function listWorkspaceAgents(db: Db, workspaceId: string, listing: AgentListing): Promise<AgentRow[]> {
  const order = listing.direction === 'asc' ? asc : desc;
  const sortColumn =
    listing.sortBy === 'name'
      ? sql`lower(${agents.name})`
      : listing.sortBy === 'call_count_7d'
        ? sql`coalesce(${agents.lastCallAt}, 'epoch'::timestamptz)`
        : agents.createdAt;
  return db
    .select()
    .from(agents)
    .where(
      and(
        eq(agents.workspaceId, workspaceId),
        listing.search ? ilike(agents.name, containing(listing.search)) : undefined,
        listing.archived === undefined
          ? undefined
          : sql`coalesce((${agents.platformSettings}->>'archived')::boolean, false) = ${listing.archived}`,
        listing.createdBy ? eq(agents.createdBy, listing.createdBy) : undefined,
      ),
    )
    .orderBy(order(sortColumn), order(agents.id))
    .limit(listing.limit + 1)
    .offset(listing.offset);
}

export async function updateAgentRow(
  db: Db,
  id: string,
  set: Partial<typeof agents.$inferInsert>,
): Promise<AgentRow | undefined> {
  const [row] = await db
    .update(agents)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(agents.id, id))
    .returning();
  return row;
}

export async function deleteAgentRow(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(agents)
    .where(and(eq(agents.workspaceId, workspaceId), eq(agents.id, id)))
    .returning({ id: agents.id });
  return deleted.length > 0;
}

export async function touchAgentCall(db: Db, id: string, at: Date): Promise<void> {
  await db.update(agents).set({ lastCallAt: at }).where(eq(agents.id, id));
}

/** The workspace's agents whose prompt names one of these tools (`tool_ids`). */
export function agentsUsingTools(db: Db, workspaceId: string, toolIds: string[]): Promise<AgentRow[]> {
  if (toolIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(agents)
    .where(
      and(
        eq(agents.workspaceId, workspaceId),
        sql`(${agents.conversationConfig}->'agent'->'prompt'->'tool_ids') ?| array[${sql.join(
          toolIds.map((id) => sql`${id}`),
          sql`, `,
        )}]::text[]`,
      ),
    )
    .orderBy(agents.createdAt, agents.id);
}

// Tools ----------------------------------------------------------------------------------------------------

export async function insertTool(db: Db, row: typeof agentTools.$inferInsert): Promise<AgentToolRow> {
  const [inserted] = await db.insert(agentTools).values(row).returning();
  if (!inserted) throw new Error('insert into agent_tools returned no row');
  return inserted;
}

export async function getWorkspaceTool(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<AgentToolRow | undefined> {
  const [row] = await db
    .select()
    .from(agentTools)
    .where(and(eq(agentTools.workspaceId, workspaceId), eq(agentTools.id, id)));
  return row;
}

/** The workspace's tools among these ids (others, and other workspaces', are left out). */
export function getWorkspaceTools(db: Db, workspaceId: string, ids: string[]): Promise<AgentToolRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(agentTools)
    .where(and(eq(agentTools.workspaceId, workspaceId), inArray(agentTools.id, ids)));
}

export interface ToolListing {
  search?: string | undefined;
  types?: string[] | undefined;
  ids?: string[] | undefined;
  sortBy: 'name' | 'created_at';
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export function listWorkspaceTools(
  db: Db,
  workspaceId: string,
  listing: ToolListing,
): Promise<AgentToolRow[]> {
  const order = listing.direction === 'asc' ? asc : desc;
  return db
    .select()
    .from(agentTools)
    .where(
      and(
        eq(agentTools.workspaceId, workspaceId),
        listing.search ? ilike(agentTools.name, containing(listing.search)) : undefined,
        listing.types?.length ? inArray(agentTools.type, listing.types) : undefined,
        listing.ids ? inArray(agentTools.id, listing.ids.length ? listing.ids : ['']) : undefined,
      ),
    )
    .orderBy(
      order(listing.sortBy === 'name' ? sql`lower(${agentTools.name})` : agentTools.createdAt),
      order(agentTools.id),
    )
    .limit(listing.limit + 1)
    .offset(listing.offset);
}

export async function updateToolRow(
  db: Db,
  id: string,
  set: Partial<typeof agentTools.$inferInsert>,
): Promise<AgentToolRow | undefined> {
  const [row] = await db
    .update(agentTools)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(agentTools.id, id))
    .returning();
  return row;
}

export async function deleteToolRow(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.delete(agentTools).where(and(eq(agentTools.workspaceId, workspaceId), eq(agentTools.id, id)));
}

export async function addToolCall(db: Db, id: string, latencyMs: number): Promise<void> {
  await db
    .update(agentTools)
    .set({
      callCount: sql`${agentTools.callCount} + 1`,
      totalLatencyMs: sql`${agentTools.totalLatencyMs} + ${Math.max(0, Math.round(latencyMs))}`,
    })
    .where(eq(agentTools.id, id));
}

/** The workspace's tools that send this secret in a header. */
export function toolsUsingSecret(db: Db, workspaceId: string, secretId: string): Promise<AgentToolRow[]> {
  return db
    .select()
    .from(agentTools)
    .where(
      and(
        eq(agentTools.workspaceId, workspaceId),
        sql`jsonb_path_exists(${agentTools.config}, '$.api_schema.request_headers.*.secret_id ? (@ == $id)', jsonb_build_object('id', ${secretId}::text))`,
      ),
    )
    .orderBy(agentTools.createdAt, agentTools.id);
}

// Secrets --------------------------------------------------------------------------------------------------

export async function insertSecret(
  db: Db,
  row: typeof agentSecrets.$inferInsert,
): Promise<AgentSecretRow | undefined> {
  const [inserted] = await db.insert(agentSecrets).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function getWorkspaceSecret(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<AgentSecretRow | undefined> {
  const [row] = await db
    .select()
    .from(agentSecrets)
    .where(and(eq(agentSecrets.workspaceId, workspaceId), eq(agentSecrets.id, id)));
  return row;
}

export function getWorkspaceSecrets(db: Db, workspaceId: string, ids: string[]): Promise<AgentSecretRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(agentSecrets)
    .where(and(eq(agentSecrets.workspaceId, workspaceId), inArray(agentSecrets.id, ids)));
}

export function listWorkspaceSecrets(
  db: Db,
  workspaceId: string,
  listing: { search?: string | undefined; offset: number; limit: number },
): Promise<AgentSecretRow[]> {
  return db
    .select()
    .from(agentSecrets)
    .where(
      and(
        eq(agentSecrets.workspaceId, workspaceId),
        listing.search ? ilike(agentSecrets.name, containing(listing.search)) : undefined,
      ),
    )
    .orderBy(asc(agentSecrets.createdAt), asc(agentSecrets.id))
    .limit(listing.limit + 1)
    .offset(listing.offset);
}

/** Renames and re-seals a secret; undefined when the name is taken by another of the workspace's. */
export async function updateSecretRow(
  db: Db,
  id: string,
  set: { name: string; valueSealed: string },
): Promise<AgentSecretRow | undefined | 'name_taken'> {
  try {
    const [row] = await db
      .update(agentSecrets)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(agentSecrets.id, id))
      .returning();
    return row;
  } catch (error) {
    if ((error as { code?: string }).code === '23505') return 'name_taken';
    throw error;
  }
}

export async function deleteSecretRow(db: Db, workspaceId: string, id: string): Promise<void> {
  await db
    .delete(agentSecrets)
    .where(and(eq(agentSecrets.workspaceId, workspaceId), eq(agentSecrets.id, id)));
}

/** The server's own sealing key: made once (the first candidate stored wins) and kept. */
export async function ensureSealingKey(db: Db, candidate: string): Promise<string> {
  await db.insert(agentSealingKeys).values({ id: 'agent-secrets', key: candidate }).onConflictDoNothing();
  const [row] = await db.select().from(agentSealingKeys).where(eq(agentSealingKeys.id, 'agent-secrets'));
  if (!row) throw new Error('the agent sealing key could not be stored');
  return row.key;
}
