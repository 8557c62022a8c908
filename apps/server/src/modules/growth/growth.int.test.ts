import { ErrorResponse, REFERRAL_RECORD_LIFETIME_MS, SessionResponse } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { createTestApp, type TestApp } from '../../test/test-app';
import { adVisits, userReferrals } from './growth.tables';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.deps.database.db;
const client = () => `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

const call = (
  method: 'GET' | 'POST',
  url: string,
  options: { token?: string; body?: unknown; ip?: string } = {},
) =>
  t.app.inject({
    method,
    url,
    remoteAddress: options.ip ?? client(),
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.body === undefined ? {} : { payload: options.body as object }),
  });

async function signUp() {
  const email = `ref-${newId(8).toLowerCase()}@example.test`;
  const res = await call('POST', '/v1/auth/sign-up', { body: { email, password: 'correct-horse-9' } });
  expect(res.statusCode).toBe(201);
  return { email, session: SessionResponse.parse(res.json()) };
}

/** A user with a referral link; answers the code in it. */
async function referrer() {
  const { session } = await signUp();
  const link = (await call('GET', '/v1/user/referral-link', { token: session.access_token })).json()
    .referral_link as string;
  const code = new URL(link).searchParams.get('via') ?? '';
  expect(code).toMatch(/^[0-9a-z]{10}$/);
  return { session, code };
}

const live = (value: string) => ({ value, expiresTimestamp: Date.now() + REFERRAL_RECORD_LIFETIME_MS });
const setup = (token: string, referral: unknown) =>
  call('POST', '/v1/user/post-registration-user-setup', { token, body: { referral } });
const referredBy = async (userId: string) =>
  (await db().select().from(userReferrals).where(eq(userReferrals.userId, userId)))[0]?.referredByCode ??
  null;
const countOf = async (token: string) =>
  (await call('GET', '/v1/user/referrals', { token })).json() as { count: number };

describe('referrals at sign-up', () => {
  it('keeps a live record of someone else’s link as referred_by_code and counts it for them', async () => {
    const ada = await referrer();
    expect(await countOf(ada.session.access_token)).toEqual({ count: 0 });
    const { session } = await signUp();
    expect((await setup(session.access_token, live(ada.code))).statusCode).toBe(200);
    expect(await referredBy(session.user_id)).toBe(ada.code);
    expect(await countOf(ada.session.access_token)).toEqual({ count: 1 });
    // Only at sign-up: a later call changes nothing, even with another referrer.
    const other = await referrer();
    expect((await setup(session.access_token, live(other.code))).statusCode).toBe(200);
    expect(await referredBy(session.user_id)).toBe(ada.code);
    expect(await countOf(other.session.access_token)).toEqual({ count: 0 });
  });

  it('ignores an expired record, an unknown code and the user’s own link', async () => {
    const ada = await referrer();
    const late = await signUp();
    const expired = { value: ada.code, expiresTimestamp: Date.now() - 1 };
    expect((await setup(late.session.access_token, expired)).statusCode).toBe(200);
    expect(await referredBy(late.session.user_id)).toBeNull();

    const lost = await signUp();
    expect((await setup(lost.session.access_token, live('nobodys0code'))).statusCode).toBe(200);
    expect(await referredBy(lost.session.user_id)).toBeNull();

    // A new account that made its own link before finishing sign-up cannot refer itself.
    const self = await referrer();
    expect((await setup(self.session.access_token, live(self.code))).statusCode).toBe(200);
    expect(await referredBy(self.session.user_id)).toBeNull();
    expect(await countOf(self.session.access_token)).toEqual({ count: 0 });
    expect(await countOf(ada.session.access_token)).toEqual({ count: 0 });
  });

  it('refuses a malformed record with 422 in the error shape', async () => {
    const { session } = await signUp();
    const res = await setup(session.access_token, { value: 'no spaces allowed', expiresTimestamp: 1 });
    expect(res.statusCode).toBe(422);
    expect(ErrorResponse.parse(res.json()).detail.status).toBe('invalid_request');
  });

  it('counts only for a signed-in caller', async () => {
    const res = await call('GET', '/v1/user/referrals');
    expect(res.statusCode).toBe(401);
    expect(ErrorResponse.parse(res.json()).detail.status).toBe('unauthorized');
  });
});

describe('POST /v1/google-ads-visit', () => {
  const visit = {
    event_type: 'visit',
    gclid: `gclid-${newId(8)}`,
    utm_source: 'google',
    utm_medium: 'cpc',
    utm_campaign: 'spring',
    utm_term: 'voice ai',
    utm_content: 'ad-1',
  };
  const stored = async (gclid: string) => db().select().from(adVisits).where(eq(adVisits.gclid, gclid));

  it('stores a signed-out visit, and a signed-in one with its user', async () => {
    const res = await call('POST', '/v1/google-ads-visit', { body: visit });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(await stored(visit.gclid)).toEqual([
      expect.objectContaining({
        userId: null,
        email: null,
        eventType: 'visit',
        utmSource: 'google',
        utmMedium: 'cpc',
        utmCampaign: 'spring',
        utmTerm: 'voice ai',
        utmContent: 'ad-1',
      }),
    ]);

    const { email, session } = await signUp();
    const gclid = `gclid-${newId(8)}`;
    const signedIn = await call('POST', '/v1/google-ads-visit', {
      token: session.access_token,
      body: { email, event_type: 'sign_up', gclid },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(await stored(gclid)).toEqual([
      expect.objectContaining({ userId: session.user_id, email, eventType: 'sign_up', utmSource: null }),
    ]);
  });

  it('refuses bad input in the error shape and stores nothing', async () => {
    const gclid = `gclid-${newId(8)}`;
    for (const body of [
      { gclid }, // no event_type
      { event_type: 'visit' }, // no ad parameter
      { event_type: 'visit', gclid, email: 'not an address' },
      { event_type: 'Visit Now', gclid },
    ]) {
      const res = await call('POST', '/v1/google-ads-visit', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(ErrorResponse.parse(res.json()).detail.status).toBe('invalid_request');
    }
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/v1/google-ads-visit',
      remoteAddress: client(),
      headers: { 'content-type': 'application/json' },
      payload: '{"event_type":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(ErrorResponse.parse(malformed.json()).detail.status).toBe('malformed_request');
    expect(await stored(gclid)).toEqual([]);
  });

  it('is rate limited per client address', async () => {
    const ip = client();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push(
        (await call('POST', '/v1/google-ads-visit', { ip, body: { event_type: 'visit', utm_source: 'x' } }))
          .statusCode,
      );
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
