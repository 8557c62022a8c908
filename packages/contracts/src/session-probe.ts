import { z } from 'zod';
import { defineRoute } from './routes';

/**
 * The part of `GET /v1/user` (accounts §7, §3 "User") that the web's session probe reads: enough to tell
 * a signed-in caller from a signed-out one. The object is not strict, so the full User response that the
 * accounts issue defines parses too; that issue's `users.ts` descriptor should replace this file.
 */
export const SessionUser = z.object({
  user_id: z.string(),
  workspace_id: z.string().nullish(),
  first_name: z.string().nullish(),
});
export type SessionUser = z.infer<typeof SessionUser>;

/** `GET /v1/user` as the web app's session probe sees it (200 signed in, 401 signed out). */
export const sessionProbeRoute = defineRoute({
  method: 'GET',
  path: '/v1/user',
  summary: 'The signed-in user (session probe view)',
  tags: ['user'],
  response: SessionUser,
});
