import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../platform/db/client';
import { notFound } from '../../platform/errors';
import { apiKeyCreated } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import {
  addKeyCredits,
  deleteApiKeyRow,
  disableKeysCreatedAfter,
  disableMemberKeys,
  getApiKeyByHash,
  getUserApiKey,
  insertApiKey,
  listUserApiKeys,
  selectLatestLiveKeyPreview,
  touchApiKey,
  updateApiKey,
} from './api-keys.store';
import type { ApiKeyRow, apiKeys } from './api-keys.tables';

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

/**
 * An API key made for its user through the API: `api_key.created` tells the modules that care (the
 * onboarding checklist: accounts §4 "API key revealed", this answer being the one time it is shown).
 */
export async function issueApiKey(
  deps: { db: Db; events: EventBus },
  input: { userId: string; workspaceId: string; name: string; characterLimit?: number | null },
): Promise<{ key: string; row: ApiKeyRow }> {
  const issued = await createApiKey(deps.db, input);
  await deps.events.publish(apiKeyCreated, {
    userId: input.userId,
    workspaceId: input.workspaceId,
    keyId: issued.row.id,
  });
  return issued;
}

/** The key's row when `key` is a live key, and notes its use; undefined otherwise. */
export async function resolveApiKey(db: Db, key: string, now: Date): Promise<ApiKeyRow | undefined> {
  if (!/^sk_[0-9a-f]{48}$/.test(key)) return undefined;
  const row = await getApiKeyByHash(db, hashApiKey(key));
  if (!row || row.disabledAt) return undefined;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= 60_000) {
    await touchApiKey(db, row.id, now);
  }
  return row;
}

/** Whether the user's key still opens the API (not disabled, not deleted): a socket's mid-way check. */
export async function apiKeyIsLive(db: Db, userId: string, keyId: string): Promise<boolean> {
  const row = await getUserApiKey(db, userId, keyId);
  return Boolean(row && !row.disabledAt);
}

/** The caller's keys, newest first. */
export function listApiKeys(db: Db, userId: string): Promise<ApiKeyRow[]> {
  return listUserApiKeys(db, userId);
}

/** One of the caller's keys; another user's key is "not found", never "forbidden". */
async function ownKey(db: Db, userId: string, keyId: string): Promise<ApiKeyRow> {
  const row = await getUserApiKey(db, userId, keyId);
  if (!row) throw notFound('The API key');
  return row;
}

export async function editApiKey(
  db: Db,
  userId: string,
  keyId: string,
  input: {
    name?: string | undefined;
    character_limit?: number | null | undefined;
    is_disabled?: boolean | undefined;
  },
  now: Date,
): Promise<ApiKeyRow> {
  const row = await ownKey(db, userId, keyId);
  const set: Partial<typeof apiKeys.$inferInsert> = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.character_limit !== undefined) set.characterLimit = input.character_limit;
  if (input.is_disabled !== undefined) set.disabledAt = input.is_disabled ? (row.disabledAt ?? now) : null;
  if (Object.keys(set).length === 0) return row;
  return (await updateApiKey(db, row.id, set)) ?? row;
}

export async function deleteApiKey(db: Db, userId: string, keyId: string): Promise<void> {
  const row = await ownKey(db, userId, keyId);
  await deleteApiKeyRow(db, row.id);
}

/** The preview (`sk_…abcd`) of a user's newest live key, for the user document. */
export function latestLiveKeyPreview(db: Db, userId: string): Promise<string | null> {
  return selectLatestLiveKeyPreview(db, userId);
}

/** Disables a user's live keys made after `after` (an email change being reverted). */
export function disableUserKeysCreatedAfter(db: Db, userId: string, after: Date, now: Date): Promise<void> {
  return disableKeysCreatedAfter(db, userId, after, now);
}

/**
 * Counts credits spent (or given back, negative) through a key: its `character_count`, which its own
 * `character_limit` caps (the credits module calls this in the spend's transaction).
 */
export function countKeyCredits(db: Db, keyId: string, delta: number): Promise<void> {
  return addKeyCredits(db, keyId, delta);
}

/** A member left the workspace: their keys for it stop working (`workspace.member_removed`). */
export function disableKeysOfFormerMember(
  db: Db,
  workspaceId: string,
  userId: string,
  now: Date,
): Promise<void> {
  return disableMemberKeys(db, workspaceId, userId, now);
}
