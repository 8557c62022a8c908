import { z } from 'zod';
import { defineRoute } from './routes';

/** One API key as its owner sees it: never the key itself, only its preview (`hint`). */
export const ApiKeyResponse = z
  .object({
    key_id: z.string(),
    name: z.string(),
    hint: z.string(),
    created_at_unix: z.number().int(),
    last_used_at_unix: z.number().int().nullable(),
    /** Credits the key may spend; null = the workspace's own limit. */
    character_limit: z.number().int().nullable(),
    character_count: z.number().int(),
    is_disabled: z.boolean(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyResponse = z.infer<typeof ApiKeyResponse>;

const ApiKeyName = z.string().trim().min(1, 'Give the key a name.').max(100);
const CharacterLimit = z.number().int().min(1).max(1_000_000_000).nullable();

export const listApiKeysRoute = defineRoute({
  method: 'GET',
  path: '/v1/user/api-keys',
  summary: 'The caller’s API keys',
  tags: ['api-keys'],
  response: z.object({ api_keys: z.array(ApiKeyResponse) }),
});

export const createApiKeyRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/api-keys',
  summary: 'Create an API key; the key is in this response only',
  tags: ['api-keys'],
  body: z.object({ name: ApiKeyName, character_limit: CharacterLimit.optional() }),
  response: z.object({ xi_api_key: z.string(), key_id: z.string(), api_key: ApiKeyResponse }),
  successStatus: 201,
});

export const editApiKeyRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/api-keys/:key_id/edit',
  summary: 'Rename a key, change its credit limit, or turn it off and on',
  tags: ['api-keys'],
  params: z.object({ key_id: z.string().max(64) }),
  body: z
    .object({ name: ApiKeyName, character_limit: CharacterLimit, is_disabled: z.boolean() })
    .partial()
    .strict(),
  response: ApiKeyResponse,
});

export const deleteApiKeyRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/user/api-keys/:key_id',
  summary: 'Delete a key; calls with it fail from now on',
  tags: ['api-keys'],
  params: z.object({ key_id: z.string().max(64) }),
  response: z.object({ status: z.literal('ok') }),
});
