import * as contracts from '@parla/contracts';
import { buildPath, type RouteDescriptor } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voiceCollections } from '../modules/voices/voices.tables';
import { signUpWithApiKey } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';
import { JSON_MAX_DEPTH } from './json-depth';

/*
 * The shared request pipeline over every route of the contracts (issue 16): a NUL character anywhere —
 * path, query, body, header — is refused before any work (404 for a path id, else 422 `invalid_request`)
 * and never reaches the database as a 500; and every authenticated route answers a request without a key
 * 401 before it looks at the body. A route added to the contracts is covered at once.
 */

/** Routes anyone may call without a key, and why (every other route must answer 401 to no key). */
const PUBLIC: Record<string, string> = {
  healthRoute: 'readiness probe',
  listModelStoreRoute: "the model store's state and licences, public like /health and /licenses",
  signUpRoute: 'makes the account',
  signInRoute: 'makes the session',
  signInMfaRoute: 'second step of a sign-in, by its mfa_token',
  refreshSessionRoute: 'the refresh cookie is the credential',
  signOutRoute: 'ends whatever session the cookie names',
  checkPasswordResetCodeRoute: 'a mailed code is the credential',
  confirmPasswordResetRoute: 'a mailed code is the credential',
  applyEmailVerificationRoute: 'a mailed code is the credential',
  sendPasswordResetEmailRoute: 'anyone may ask for a reset mail',
  sendVerificationEmailRoute: 'anyone may ask for a verification mail',
  optOutOfUpdatesRoute: 'a mailed key is the credential',
  verifySignInRequestRoute: 'a mailed code is the credential',
  removeMfaWithBackupCodeRoute: 'during a sign-in its mfa_token is the credential (else a session)',
  updateEmailRoute: 'a revert link works without a sign-in (else a session)',
  preSignUpRoute: 'before an account exists',
  generateNameRoute: 'a name for a sign-up form',
  getRandomUserIdRoute: 'a random value for a form',
  listPlanOffersRoute: 'the price list is public',
  getSharedItemRoute: 'a share link is public by design',
  conversationFeedbackRoute:
    "the official client posts it from the page: the conversation's id is the credential",
  getSharedItemAudioRoute: 'a share link is public by design',
  getHostedSessionRoute: 'a hosted billing page: its secret session id is the credential',
  submitCardRoute: 'a hosted billing page: its secret session id is the credential',
  authenticateSessionRoute: 'a hosted billing page: its secret session id is the credential',
  payInvoiceRoute: 'a hosted billing page: its secret session id is the credential',
  createPortalCardSessionRoute: 'a hosted billing page: its secret session id is the credential',
  completeConnectSessionRoute: 'a hosted billing page: its secret session id is the credential',
  stripeWebhookRoute: 'Stripe signs its events',
  listOutboxEmailsRoute: 'the development mailbox (off in production)',
  getOutboxEmailRoute: 'the development mailbox (off in production)',
  googleAdsVisitRoute: 'a paid-ads visit, signed in or not',
  getConsentRoute: 'the consent banner shows before sign-in',
  updateConsentRoute: 'the consent banner shows before sign-in',
  getAgentWidgetRoute: "a public agent's widget is embedded on sites with no key (el-facts §3 Widget embed)",
  getAudioNativePlayerRoute:
    "the Audio Native player is embedded on sites with no key; its project's allowed origins bound it (issue 30 item 4)",
};

const routes = Object.entries(contracts as Record<string, unknown>).filter(
  (entry): entry is [string, RouteDescriptor] =>
    typeof entry[1] === 'object' &&
    entry[1] !== null &&
    'method' in entry[1] &&
    'path' in entry[1] &&
    'response' in entry[1],
);

/** The field names a zod object schema declares (none for other schemas). */
function fieldsOf(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

const pathParams = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);

let t: TestApp;
let token: string;
let address = 0;
/** Each call from its own address, so no rate limit answers in the validation's place. */
const remoteAddress = () => `10.77.${Math.floor(++address / 250) % 250}.${address % 250}`;

beforeAll(async () => {
  t = await createTestApp();
  token = (await signUpWithApiKey(t.app)).accessToken;
});
afterAll(() => t.close());

describe('a NUL character anywhere in a request', () => {
  it('covers every route of the contracts', () => {
    expect(routes.length).toBeGreaterThan(150);
  });

  it.each(routes)('%s: in the path is 404, in the query or body 422, never a 5xx', async (_name, route) => {
    // The Stripe webhook is registered only with the Stripe provider.
    if (!t.app.hasRoute({ method: route.method, url: route.path })) return;
    const params = pathParams(route.path);
    const filled = Object.fromEntries(params.map((p) => [p, 'x']));
    const call = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: route.method,
        url,
        remoteAddress: remoteAddress(),
        headers: { authorization: `Bearer ${token}`, ...headers },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    const results: [string, number, string][] = [];
    const record = async (what: string, response: Awaited<ReturnType<typeof call>>) => {
      results.push([
        what,
        response.statusCode,
        (response.json() as { detail?: { status?: string } }).detail?.status ?? '',
      ]);
    };
    for (const param of params) {
      await record(`path ${param}`, await call(buildPath(route.path, { ...filled, [param]: '\u0000' })));
    }
    const url = buildPath(route.path, filled);
    for (const key of [...fieldsOf(route.query), 'unknown_field']) {
      await record(`query ${key}`, await call(`${url}?${key}=a%00b`));
    }
    if (route.method !== 'GET' && route.method !== 'DELETE') {
      for (const key of [...fieldsOf(route.body), 'unknown_field']) {
        await record(`body ${key}`, await call(url, { [key]: 'a\u0000b', nested: [{ deep: '\u0000' }] }));
      }
      await record('body key', await call(url, { 'a\u0000b': 1 }));
    }
    await record('header', await call(url, undefined, { 'x-note': 'a\u0000b' }));
    for (const [what, status, code] of results) {
      expect([what, status < 500]).toEqual([what, true]);
      if (what.startsWith('path')) expect([what, status, code]).toEqual([what, 404, 'not_found']);
      else expect([what, status, code]).toEqual([what, 422, 'invalid_request']);
    }
  });

  it('changes nothing: a collection named with a NUL is not made', async () => {
    const account = await signUpWithApiKey(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/voices/collections',
      headers: { 'xi-api-key': account.apiKey },
      payload: { name: 'a\u0000b' },
    });
    expect([res.statusCode, (res.json() as { detail: { errors: unknown } }).detail.errors]).toEqual([
      422,
      [
        {
          loc: ['body', 'name'],
          msg: 'Value contains a NUL character, which cannot be stored',
          type: 'value_error',
        },
      ],
    ]);
    const made = await t.deps.database.db
      .select()
      .from(voiceCollections)
      .where(eq(voiceCollections.workspaceId, account.workspaceId));
    expect(made).toEqual([]);
  });

  it('a text to speak with a NUL is refused before anything is spoken or charged', async () => {
    const account = await signUpWithApiKey(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/text-to-speech/${contracts.PREMADE_VOICES[0]?.voice_id}`,
      headers: { 'xi-api-key': account.apiKey },
      payload: { text: 'Hello\u0000 there.' },
    });
    expect(res.statusCode).toBe(422);
    const user = await t.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { 'xi-api-key': account.apiKey },
    });
    expect((user.json() as { subscription: { character_count: number } }).subscription.character_count).toBe(
      0,
    );
  });

  it('the probe’s requests: history item, mailbox, payment-method session', async () => {
    for (const url of [
      '/v1/history/%00',
      '/dev/mailbox?to=%00',
      '/v1/billing/sessions/%00/payment-method-session',
    ]) {
      const res = await t.app.inject({
        method: url.includes('payment') ? 'POST' : 'GET',
        url,
        headers: { authorization: `Bearer ${token}` },
      });
      expect([url, res.statusCode]).toEqual([url, url.includes('?') ? 422 : 404]);
    }
  });
});

describe('a JSON body nested deeper than JSON_MAX_DEPTH', () => {
  // 10,000 levels: 5,000–8,000 overflowed the string walk's stack (a 500 on every JSON route, issue 26 item 9).
  const deep = (depth: number) => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;
  const withBody = routes.filter(([, route]) => route.method !== 'GET' && route.method !== 'DELETE');

  it.each(withBody)('%s: is a 400 malformed_request, never a 5xx', async (_name, route) => {
    if (!t.app.hasRoute({ method: route.method, url: route.path })) return;
    const url = buildPath(route.path, Object.fromEntries(pathParams(route.path).map((p) => [p, 'x'])));
    const res = await t.app.inject({
      method: route.method,
      url,
      remoteAddress: remoteAddress(),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: `{"text":${deep(10_000)}}`,
    });
    expect([res.statusCode, res.json()]).toEqual([
      400,
      {
        detail: {
          status: 'malformed_request',
          message: `The request body nests deeper than ${JSON_MAX_DEPTH} levels; JSON bodies nest at most ${JSON_MAX_DEPTH} levels.`,
        },
      },
    ]);
  });

  it('sign-up refuses it, the process keeps serving, and a body at the limit signs up', async () => {
    const signUp = (payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/auth/sign-up',
        remoteAddress: remoteAddress(),
        headers: { 'content-type': 'application/json' },
        payload,
      });
    const email = `deep-${Date.now()}@example.test`;
    const refused = await signUp(`{"email":"${email}","password":"client-pass-1","x":${deep(10_000)}}`);
    expect(refused.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    // The object is one level, `x` the other 63: exactly JSON_MAX_DEPTH, accepted.
    const accepted = await signUp(
      `{"email":"${email}","password":"client-pass-1","x":${deep(JSON_MAX_DEPTH - 1)}}`,
    );
    expect(accepted.statusCode, accepted.body).toBe(201);
  });
});

describe('authentication comes first', () => {
  const guarded = routes.filter(([name]) => !(name in PUBLIC));

  it('every public route named here exists', () => {
    const names = new Set(routes.map(([name]) => name));
    expect(Object.keys(PUBLIC).filter((name) => !names.has(name))).toEqual([]);
  });

  it.each(guarded)(
    '%s: no key and a malformed body or query is 401, not 400/422/429',
    async (_name, route) => {
      expect(t.app.hasRoute({ method: route.method, url: route.path })).toBe(true);
      const url = buildPath(route.path, Object.fromEntries(pathParams(route.path).map((p) => [p, 'x'])));
      const res = await t.app.inject({
        method: route.method,
        url: `${url}?page_size=not-a-number&voice_id=`,
        remoteAddress: '10.99.0.1',
        ...(route.method === 'GET' || route.method === 'DELETE'
          ? {}
          : { headers: { 'content-type': 'application/json' }, payload: '{"not": json' }),
      });
      expect([res.statusCode, (res.json() as { detail: { status: string } }).detail.status]).toEqual([
        401,
        'unauthorized',
      ]);
    },
  );
});
