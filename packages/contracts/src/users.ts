import { z } from 'zod';
import { defineRoute } from './routes';

/**
 * `GET /v1/user` (accounts §7, §3 "User"), narrowed to the fields the web reads today: the id that tells a
 * signed-in caller from a signed-out one, and the workspace and first name the header shows. The accounts
 * issue defines the full User; `.loose()` keeps its other fields, so that response parses here unchanged.
 */
export const UserResponse = z
  .object({
    user_id: z.string(),
    workspace_id: z.string().nullish(),
    first_name: z.string().nullish(),
  })
  .loose();
export type UserResponse = z.infer<typeof UserResponse>;

/** `GET /v1/user`: the signed-in user; 401 without a session. The server adds it with the accounts issue. */
export const getUserRoute = defineRoute({
  method: 'GET',
  path: '/v1/user',
  summary: 'The signed-in user',
  tags: ['user'],
  response: UserResponse,
});
