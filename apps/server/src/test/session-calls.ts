import type { FastifyInstance } from 'fastify';

/** What a test's account calls with: its session token (billing calls refuse API keys). */
interface SessionAccount {
  accessToken: string;
}

export type CallBody = Record<string, unknown> & { detail?: { status: string; message: string } };

/**
 * Calls the app as a signed-in account (`app` is read at call time, so it may be made in beforeAll), with
 * shortcuts for the subscription and the billing overview.
 */
export function sessionCalls(app: () => FastifyInstance) {
  async function call(
    account: SessionAccount,
    url: string,
    payload?: object,
    method: 'GET' | 'POST' = 'POST',
  ) {
    const res = await app().inject({
      method,
      url,
      headers: { authorization: `Bearer ${account.accessToken}` },
      ...(method === 'POST' ? { payload: payload ?? {} } : {}),
    });
    return { status: res.statusCode, body: res.json() as CallBody };
  }
  return {
    call,
    subscription: async (account: SessionAccount) =>
      (await call(account, '/v1/user/subscription', undefined, 'GET')).body,
    overview: async (account: SessionAccount) =>
      (await call(account, '/v1/billing/overview', undefined, 'GET')).body,
  };
}
