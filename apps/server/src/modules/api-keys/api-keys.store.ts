import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type ApiKeyRow, apiKeys } from './api-keys.tables';

export async function insertApiKey(db: Db, row: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [inserted] = await db.insert(apiKeys).values(row).returning();
  if (!inserted) throw new Error('insert into api_keys returned no row');
  return inserted;
}

export async function getApiKeyByHash(db: Db, keyHash: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash));
  return row;
}

/** Notes a key's use, at most once a minute, so a busy key does not cost a write per request. */
export async function touchApiKey(db: Db, id: string, at: Date): Promise<void> {
  const aMinuteAgo = new Date(at.getTime() - 60_000);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: at })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, aMinuteAgo))));
}

/** A user's keys, newest first. */
export async function listUserApiKeys(db: Db, userId: string): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt));
}

/** One of a user's keys. */
export async function getUserApiKey(db: Db, userId: string, keyId: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)));
  return row;
}

export async function updateApiKey(
  db: Db,
  id: string,
  set: Partial<typeof apiKeys.$inferInsert>,
): Promise<ApiKeyRow | undefined> {
  const [updated] = await db.update(apiKeys).set(set).where(eq(apiKeys.id, id)).returning();
  return updated;
}

export async function deleteApiKeyRow(db: Db, id: string): Promise<void> {
  await db.delete(apiKeys).where(eq(apiKeys.id, id));
}

/** The preview (`sk_…abcd`) of a user's newest live key, for the user document. */
export async function selectLatestLiveKeyPreview(db: Db, userId: string): Promise<string | null> {
  const [key] = await db
    .select({ preview: apiKeys.preview })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.disabledAt)))
    .orderBy(desc(apiKeys.createdAt))
    .limit(1);
  return key?.preview ?? null;
}

/** Disables a user's live keys made after `after` (an email change being reverted). */
export async function disableKeysCreatedAfter(db: Db, userId: string, after: Date, now: Date): Promise<void> {
  await db
    .update(apiKeys)
    .set({ disabledAt: now })
    .where(and(eq(apiKeys.userId, userId), gt(apiKeys.createdAt, after), isNull(apiKeys.disabledAt)));
}

/** Disables a member's live keys for one workspace (they left it). */
export async function disableMemberKeys(
  db: Db,
  workspaceId: string,
  userId: string,
  now: Date,
): Promise<void> {
  await db
    .update(apiKeys)
    .set({ disabledAt: now })
    .where(and(eq(apiKeys.userId, userId), eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.disabledAt)));
}

/** Moves a key's credit count by `delta` (a charge, or a refund's negative), never below 0. */
export async function addKeyCredits(db: Db, keyId: string, delta: number): Promise<void> {
  await db
    .update(apiKeys)
    .set({ characterCount: sql`greatest(0, ${apiKeys.characterCount} + ${delta})` })
    .where(eq(apiKeys.id, keyId));
}
