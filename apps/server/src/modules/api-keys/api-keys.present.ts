import type { ApiKeyResponse, createApiKeyRoute, listApiKeysRoute } from '@parla/contracts';
import type { z } from 'zod';
import { toUnixSeconds } from '../../platform/clock';
import type { ApiKeyRow } from './api-keys.tables';

/** The owner's view of a key (never the key itself). */
export function toApiKeyResponse(row: ApiKeyRow): ApiKeyResponse {
  return {
    key_id: row.id,
    name: row.name,
    hint: row.preview,
    created_at_unix: toUnixSeconds(row.createdAt),
    last_used_at_unix: row.lastUsedAt ? toUnixSeconds(row.lastUsedAt) : null,
    character_limit: row.characterLimit,
    character_count: row.characterCount,
    is_disabled: row.disabledAt !== null,
  };
}

/** The caller's keys (`GET /v1/user/api-keys`). */
export function toApiKeyList(rows: ApiKeyRow[]): z.infer<typeof listApiKeysRoute.response> {
  return { api_keys: rows.map(toApiKeyResponse) };
}

/** A key just made: the key itself, this one time, with its owner's view. */
export function toCreatedApiKey(key: string, row: ApiKeyRow): z.infer<typeof createApiKeyRoute.response> {
  return { xi_api_key: key, key_id: row.id, api_key: toApiKeyResponse(row) };
}
