import type { FastifyInstance } from 'fastify';
import { createUserWithWorkspace } from '../modules/workspaces/workspaces.service';
import type { Db } from '../platform/db/client';
import { newId } from '../platform/ids';

/** A fresh user with their own workspace, unique per call, so tests never share or clean up data. */
export async function createTestUser(db: Db, overrides: { email?: string; firstName?: string } = {}) {
  return createUserWithWorkspace(db, {
    email: overrides.email ?? `user-${newId(10).toLowerCase()}@test.parla.local`,
    firstName: overrides.firstName ?? 'Test',
  });
}

/** A new account signed up through the API, with an API key: for tests that call as a client would. */
export async function signUpWithApiKey(
  app: FastifyInstance,
): Promise<{ email: string; accessToken: string; apiKey: string; userId: string; workspaceId: string }> {
  const email = `client-${newId(8).toLowerCase()}@example.test`;
  const signUp = await app.inject({
    method: 'POST',
    url: '/v1/auth/sign-up',
    remoteAddress: `10.5.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    payload: { email, password: 'client-pass-1' },
  });
  const session = signUp.json() as { access_token: string; user_id: string; workspace_id: string };
  const created = await app.inject({
    method: 'POST',
    url: '/v1/user/api-keys',
    headers: { authorization: `Bearer ${session.access_token}` },
    payload: { name: 'test client' },
  });
  return {
    email,
    accessToken: session.access_token,
    apiKey: (created.json() as { xi_api_key: string }).xi_api_key,
    userId: session.user_id,
    workspaceId: session.workspace_id,
  };
}
