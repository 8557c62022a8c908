import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../platform/db/client';
import { newId } from '../../platform/ids';
import { getApiKeyByHash, insertApiKey, touchApiKey } from './api-keys.store';
import type { ApiKeyRow } from './api-keys.tables';

/** The stored form of an API key. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Creates a key (`sk_` + 48 hex characters, like the public API's) and returns it once, with its row. */
export async function createApiKey(
  db: Db,
  input: { userId: string; workspaceId: string; name: string; characterLimit?: number | null },
): Promise<{ key: string; row: ApiKeyRow }> {
  const key = `sk_${randomBytes(24).toString('hex')}`;
  const row = await insertApiKey(db, {
    id: newId(),
    userId: input.userId,
    workspaceId: input.workspaceId,
    name: input.name,
    keyHash: hashApiKey(key),
    preview: `sk_…${key.slice(-4)}`,
    characterLimit: input.characterLimit ?? null,
  });
  return { key, row };
}

/** The key's row when `key` is a live key, and notes its use; undefined otherwise. */
export async function resolveApiKey(db: Db, key: string, now: Date): Promise<ApiKeyRow | undefined> {
  if (!/^sk_[0-9a-f]{48}$/.test(key)) return undefined;
  const row = await getApiKeyByHash(db, hashApiKey(key));
  if (row && (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= 60_000)) {
    await touchApiKey(db, row.id, now);
  }
  return row;
}
