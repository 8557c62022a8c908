import { and, eq, isNull, lt, or } from 'drizzle-orm';
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
