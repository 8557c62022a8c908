import type { ApiKeyResponse } from '@parla/contracts';
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
