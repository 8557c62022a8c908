import type { TestRunStatus } from '@parla/contracts';
import { and, asc, desc, eq, ilike, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import {
  type AgentTestFolderRow,
  type AgentTestInvocationRow,
  type AgentTestRow,
  type AgentTestRunRow,
  agentTestFolders,
  agentTestInvocations,
  agentTestRuns,
  agentTests,
} from './agent-testing.tables';

/** All SQL of agent testing (issue 28). Every read and write names the workspace. */

export async function insertTest(db: Db, row: typeof agentTests.$inferInsert): Promise<void> {
  await db.insert(agentTests).values(row);
}

export async function findTest(db: Db, workspaceId: string, id: string): Promise<AgentTestRow | undefined> {
  const [row] = await db
    .select()
    .from(agentTests)
    .where(and(eq(agentTests.workspaceId, workspaceId), eq(agentTests.id, id)));
  return row;
}

export async function findTests(db: Db, workspaceId: string, ids: string[]): Promise<AgentTestRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(agentTests)
    .where(and(eq(agentTests.workspaceId, workspaceId), inArray(agentTests.id, ids)));
}

export async function updateTestRow(
  db: Db,
  workspaceId: string,
  id: string,
  values: Partial<typeof agentTests.$inferInsert>,
): Promise<AgentTestRow | undefined> {
  const [row] = await db
    .update(agentTests)
    .set(values)
    .where(and(eq(agentTests.workspaceId, workspaceId), eq(agentTests.id, id)))
    .returning();
  return row;
}

export async function deleteTestRow(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(agentTests)
    .where(and(eq(agentTests.workspaceId, workspaceId), eq(agentTests.id, id)))
    .returning({ id: agentTests.id });
  return rows.length > 0;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listTestRows(
  db: Db,
  workspaceId: string,
  options: { search?: string; folderId?: string | null; types?: string[]; offset: number; limit: number },
): Promise<AgentTestRow[]> {
  const where = [eq(agentTests.workspaceId, workspaceId)];
  if (options.search) where.push(ilike(agentTests.name, `%${escapeLike(options.search)}%`));
  if (options.folderId === null) where.push(isNull(agentTests.folderId));
  else if (options.folderId) where.push(eq(agentTests.folderId, options.folderId));
  if (options.types) where.push(inArray(agentTests.type, options.types));
  return db
    .select()
    .from(agentTests)
    .where(and(...where))
    .orderBy(desc(agentTests.createdAt), desc(agentTests.id))
    .offset(options.offset)
    .limit(options.limit);
}

// Folders ----------------------------------------------------------------------------------------------

export async function insertFolder(db: Db, row: typeof agentTestFolders.$inferInsert): Promise<void> {
  await db.insert(agentTestFolders).values(row);
}

export async function findFolder(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<AgentTestFolderRow | undefined> {
  const [row] = await db
    .select()
    .from(agentTestFolders)
    .where(and(eq(agentTestFolders.workspaceId, workspaceId), eq(agentTestFolders.id, id)));
  return row;
}

export async function listFolderRows(
  db: Db,
  workspaceId: string,
  options: { search?: string; parentId?: string | null },
): Promise<AgentTestFolderRow[]> {
  const where = [eq(agentTestFolders.workspaceId, workspaceId)];
  if (options.search) where.push(ilike(agentTestFolders.name, `%${escapeLike(options.search)}%`));
  if (options.parentId === null) where.push(isNull(agentTestFolders.parentId));
  else if (options.parentId) where.push(eq(agentTestFolders.parentId, options.parentId));
  return db
    .select()
    .from(agentTestFolders)
    .where(and(...where))
    .orderBy(asc(agentTestFolders.name));
}

export async function allFolders(db: Db, workspaceId: string): Promise<AgentTestFolderRow[]> {
  return db.select().from(agentTestFolders).where(eq(agentTestFolders.workspaceId, workspaceId));
}

export async function childrenCount(db: Db, workspaceId: string, folderId: string): Promise<number> {
  const [tests] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(agentTests)
    .where(and(eq(agentTests.workspaceId, workspaceId), eq(agentTests.folderId, folderId)));
  const [folders] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(agentTestFolders)
    .where(and(eq(agentTestFolders.workspaceId, workspaceId), eq(agentTestFolders.parentId, folderId)));
  return (tests?.n ?? 0) + (folders?.n ?? 0);
}

export async function renameFolder(
  db: Db,
  workspaceId: string,
  id: string,
  name: string,
  now: Date,
): Promise<void> {
  await db
    .update(agentTestFolders)
    .set({ name, updatedAt: now })
    .where(and(eq(agentTestFolders.workspaceId, workspaceId), eq(agentTestFolders.id, id)));
}

/** Deletes folders and the tests in them (the caller has collected the subtree). */
export async function deleteFolders(db: Db, workspaceId: string, ids: string[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .delete(agentTests)
      .where(and(eq(agentTests.workspaceId, workspaceId), inArray(agentTests.folderId, ids)));
    await tx
      .delete(agentTestFolders)
      .where(and(eq(agentTestFolders.workspaceId, workspaceId), inArray(agentTestFolders.id, ids)));
  });
}

export async function moveEntities(
  db: Db,
  workspaceId: string,
  testIds: string[],
  folderIds: string[],
  to: string | null,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    if (testIds.length > 0)
      await tx
        .update(agentTests)
        .set({ folderId: to, updatedAt: now })
        .where(and(eq(agentTests.workspaceId, workspaceId), inArray(agentTests.id, testIds)));
    if (folderIds.length > 0)
      await tx
        .update(agentTestFolders)
        .set({ parentId: to, updatedAt: now })
        .where(and(eq(agentTestFolders.workspaceId, workspaceId), inArray(agentTestFolders.id, folderIds)));
  });
}

// Invocations and runs --------------------------------------------------------------------------------

export async function insertInvocation(
  db: Db,
  invocation: typeof agentTestInvocations.$inferInsert,
  runs: (typeof agentTestRuns.$inferInsert)[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(agentTestInvocations).values(invocation);
    await tx.insert(agentTestRuns).values(runs);
  });
}

export async function findInvocation(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<AgentTestInvocationRow | undefined> {
  const [row] = await db
    .select()
    .from(agentTestInvocations)
    .where(and(eq(agentTestInvocations.workspaceId, workspaceId), eq(agentTestInvocations.id, id)));
  return row;
}

export async function invocationById(db: Db, id: string): Promise<AgentTestInvocationRow | undefined> {
  const [row] = await db.select().from(agentTestInvocations).where(eq(agentTestInvocations.id, id));
  return row;
}

export async function runsOf(db: Db, invocationIds: string[]): Promise<AgentTestRunRow[]> {
  if (invocationIds.length === 0) return [];
  return db
    .select()
    .from(agentTestRuns)
    .where(inArray(agentTestRuns.invocationId, invocationIds))
    .orderBy(asc(agentTestRuns.position));
}

export async function listInvocationRows(
  db: Db,
  workspaceId: string,
  options: { agentId?: string; testId?: string; offset: number; limit: number },
): Promise<AgentTestInvocationRow[]> {
  const where = [eq(agentTestInvocations.workspaceId, workspaceId)];
  if (options.agentId) where.push(eq(agentTestInvocations.agentId, options.agentId));
  if (options.testId)
    where.push(
      inArray(
        agentTestInvocations.id,
        db
          .select({ id: agentTestRuns.invocationId })
          .from(agentTestRuns)
          .where(and(eq(agentTestRuns.workspaceId, workspaceId), eq(agentTestRuns.testId, options.testId))),
      ),
    );
  return db
    .select()
    .from(agentTestInvocations)
    .where(and(...where))
    .orderBy(desc(agentTestInvocations.createdAt), desc(agentTestInvocations.id))
    .offset(options.offset)
    .limit(options.limit);
}

/** Moves runs from one state to another; returns how many moved (a cancelled run is never overwritten). */
export async function setRunStatus(
  db: Db,
  runIds: string[],
  from: TestRunStatus[],
  values: Partial<typeof agentTestRuns.$inferInsert> & { status: TestRunStatus },
): Promise<number> {
  if (runIds.length === 0) return 0;
  const rows = await db
    .update(agentTestRuns)
    .set(values)
    .where(and(inArray(agentTestRuns.id, runIds), inArray(agentTestRuns.status, from)))
    .returning({ id: agentTestRuns.id });
  return rows.length;
}

export async function markInvocationCancelled(db: Db, id: string, cancelled: boolean): Promise<void> {
  await db
    .update(agentTestInvocations)
    .set({ cancelled: cancelled ? 1 : 0 })
    .where(eq(agentTestInvocations.id, id));
}

export async function runStatus(db: Db, runId: string): Promise<TestRunStatus | undefined> {
  const [row] = await db
    .select({ status: agentTestRuns.status })
    .from(agentTestRuns)
    .where(eq(agentTestRuns.id, runId));
  return row?.status;
}
