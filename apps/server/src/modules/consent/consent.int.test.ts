import { ElevenLabsClient, ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { encodeWav } from '@parla/audio';
import {
  bipaTerms,
  ConsentStateResponse,
  ErrorResponse,
  TrainingOptOutResponse,
  trainingOptOutMessages,
  UserResponse,
} from '@parla/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { premadeVoiceId } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { fliteSpeech, TEN_SECONDS_OF_TEXT } from '../../test/test-signals';
import { signAccessToken } from '../auth/access-token';
import { workspaceMembers, workspaces } from '../workspaces/workspaces.tables';
import { userConsents, workspaceConsents } from './consent.tables';

/*
 * Consent and privacy (issue 8 item 4, accounts §4, §6, §9) through the real app. Callers' addresses are
 * set with inject's remoteAddress (the socket peer: no header is trusted), and real public addresses are
 * placed by the offline database: 193.0.6.139 (RIPE NCC, the Netherlands), 129.132.1.1 (ETH Zurich),
 * 81.2.69.142 (England), 24.16.0.1 (Washington state), 128.32.0.1 (Berkeley, California), 128.83.0.1
 * (Texas) and 128.135.1.1 (the University of Chicago, Illinois).
 */

const NETHERLANDS = '193.0.6.139';
const SWITZERLAND = '129.132.1.1';
const ENGLAND = '81.2.69.142';
const WASHINGTON = '24.16.0.1';
const CALIFORNIA = '128.32.0.1';
const TEXAS = '128.83.0.1';
const ILLINOIS = '128.135.1.1';

let t: TestApp;
let baseUrl: string;
let wav: Buffer;
const db = () => t.deps.database.db;

beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2', ENGINE_TIMEOUT_MS: '20000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  wav = encodeWav(await fliteSpeech('awb', TEN_SECONDS_OF_TEXT));
}, 60_000);
afterAll(() => t.close());

/** A private address per call, so sign-up rate limits never meet and the database places nobody. */
const privateIp = () => `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

interface Account {
  userId: string;
  workspaceId: string;
  token: string;
}

async function signUp(ip = privateIp()): Promise<Account> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/sign-up',
    remoteAddress: ip,
    payload: { email: `consent-${newId(8).toLowerCase()}@example.test`, password: 'consent-pass-1' },
  });
  expect(res.statusCode).toBe(201);
  const session = res.json() as { access_token: string; user_id: string; workspace_id: string };
  return { userId: session.user_id, workspaceId: session.workspace_id, token: session.access_token };
}

function call(
  account: Pick<Account, 'token'> | null,
  method: 'GET' | 'POST',
  url: string,
  options: { ip?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  return t.app.inject({
    method,
    url,
    remoteAddress: options.ip ?? privateIp(),
    headers: { ...(account ? { authorization: `Bearer ${account.token}` } : {}), ...options.headers },
    ...(options.body === undefined ? {} : { payload: options.body as object }),
  });
}

const consentOf = async (account: Account, ip?: string, headers?: Record<string, string>) => {
  const res = await call(account, 'GET', '/v1/user/consent', {
    ...(ip ? { ip } : {}),
    ...(headers ? { headers } : {}),
  });
  expect(res.statusCode).toBe(200);
  return ConsentStateResponse.parse(res.json());
};
/** The user's consents as stored (the consent module's row), with the defaults when there is none. */
const storedUser = async (userId: string) => {
  const [row] = await db().select().from(userConsents).where(eq(userConsents.userId, userId));
  return (
    row ?? {
      geoLocation: null,
      analyticsConsent: null,
      ccpaOptOut: false,
      acceptedBipaTerms: false,
      bipaTermsAcceptedAt: null,
    }
  );
};
const detailOf = (res: { json(): unknown }) => ErrorResponse.parse(res.json()).detail;

describe('analytics consent defaults by region (accounts §4)', () => {
  it('denies analytics and ads until asked in the EU/EEA, the UK and Switzerland', async () => {
    for (const [ip, country] of [
      [NETHERLANDS, 'nl'],
      [SWITZERLAND, 'ch'],
      [ENGLAND, 'gb'],
    ] as const) {
      const account = await signUp();
      const state = await consentOf(account, ip);
      expect(state.analytics).toEqual({
        state: 'undecided',
        analytics_storage: 'denied',
        ad_storage: 'denied',
      });
      expect(state.geo_location?.country).toBe(country);
      // Stored in users.geo_location, so the location is looked up once.
      expect((await storedUser(account.userId)).geoLocation?.country).toBe(country);
    }
  });

  it('grants elsewhere (a US address): consent is not applicable', async () => {
    const account = await signUp();
    const state = await consentOf(account, WASHINGTON);
    expect(state.analytics).toEqual({
      state: 'not_applicable',
      analytics_storage: 'granted',
      ad_storage: 'granted',
    });
    expect(state.geo_location).toMatchObject({ country: 'us', region: 'wa' });
  });

  it('records the location at sign-up, and never replaces a known one', async () => {
    const account = await signUp(NETHERLANDS);
    expect((await storedUser(account.userId)).geoLocation).toMatchObject({ country: 'nl' });
    const state = await consentOf(account, WASHINGTON);
    expect(state.geo_location?.country).toBe('nl');
    expect(state.analytics.state).toBe('undecided');
  });

  it('keeps an unplaceable address unknown, with the default of granting', async () => {
    const account = await signUp();
    const state = await consentOf(account, '127.0.0.1');
    expect(state.geo_location).toBeNull();
    expect(state.analytics.state).toBe('not_applicable');
    expect((await storedUser(account.userId)).geoLocation).toBeNull();
  });

  it('keeps the choice made on the banner, which then is the state', async () => {
    const account = await signUp(NETHERLANDS);
    const accepted = await call(account, 'POST', '/v1/user/consent', {
      body: { analytics_consent: 'granted' },
    });
    expect(accepted.statusCode).toBe(200);
    expect(ConsentStateResponse.parse(accepted.json()).analytics).toEqual({
      state: 'granted',
      analytics_storage: 'granted',
      ad_storage: 'granted',
    });
    expect((await consentOf(account)).analytics.state).toBe('granted');
    const declined = await call(account, 'POST', '/v1/user/consent', {
      body: { analytics_consent: 'denied' },
    });
    expect(ConsentStateResponse.parse(declined.json()).analytics.state).toBe('denied');
    expect((await storedUser(account.userId)).analyticsConsent).toBe('denied');
  });

  it('refuses an empty or unknown choice, and a caller without a session', async () => {
    const account = await signUp();
    const empty = await call(account, 'POST', '/v1/user/consent', { body: {} });
    expect(empty.statusCode).toBe(422);
    const unknown = await call(account, 'POST', '/v1/user/consent', { body: { analytics_consent: 'maybe' } });
    expect(unknown.statusCode).toBe(422);
    expect((await call(null, 'GET', '/v1/user/consent')).statusCode).toBe(401);
  });
});

describe('CCPA opt-out (accounts §4, §9)', () => {
  it('a Sec-GPC header from a user in a listed state records the opt-out', async () => {
    const account = await signUp(CALIFORNIA);
    expect((await consentOf(account)).ccpa).toEqual({ applies: true, opt_out: false });
    const state = await consentOf(account, undefined, { 'sec-gpc': '1' });
    expect(state.ccpa).toEqual({ applies: true, opt_out: true });
    expect((await storedUser(account.userId)).ccpaOptOut).toBe(true);
  });

  it('does so on any signed-in request, not only the consent call', async () => {
    const account = await signUp(TEXAS);
    const res = await call(account, 'GET', '/v1/user', { headers: { 'sec-gpc': '1' } });
    expect(res.statusCode).toBe(200);
    expect((await storedUser(account.userId)).ccpaOptOut).toBe(true);
    expect(UserResponse.parse((await call(account, 'GET', '/v1/user')).json()).ccpa_opt_out).toBe(true);
  });

  it('leaves users outside the listed states, and requests without the signal, as they are', async () => {
    const washington = await signUp(WASHINGTON);
    const state = await consentOf(washington, undefined, { 'sec-gpc': '1' });
    expect(state.ccpa).toEqual({ applies: false, opt_out: false });
    await call(washington, 'GET', '/v1/user', { headers: { 'sec-gpc': '1' } });
    expect((await storedUser(washington.userId)).ccpaOptOut).toBe(false);

    const california = await signUp(CALIFORNIA);
    await call(california, 'GET', '/v1/user', { headers: { 'sec-gpc': '0' } });
    expect((await storedUser(california.userId)).ccpaOptOut).toBe(false);
  });

  it('records the opt-out the app sends as optOutCCPA', async () => {
    const account = await signUp(CALIFORNIA);
    const res = await call(account, 'POST', '/v1/user/consent', { body: { optOutCCPA: true } });
    expect(res.statusCode).toBe(200);
    expect(ConsentStateResponse.parse(res.json()).ccpa).toEqual({ applies: true, opt_out: true });
    expect((await storedUser(account.userId)).ccpaOptOut).toBe(true);
  });
});

describe('biometric (BIPA) terms (accounts §4)', () => {
  /** An account on a plan with both kinds of cloning, with an API key for the official client. */
  async function creatorAccount(ip: string) {
    const account = await signUp(ip);
    await db().update(workspaces).set({ tier: 'creator' }).where(eq(workspaces.id, account.workspaceId));
    const created = await call(account, 'POST', '/v1/user/api-keys', { body: { name: 'consent test' } });
    const key = (created.json() as { xi_api_key: string }).xi_api_key;
    return { ...account, key, sdk: new ElevenLabsClient({ apiKey: key, baseUrl, maxRetries: 0 }) };
  }

  const cloneWith = (sdk: ElevenLabsClient) =>
    sdk.voices.ivc.create({ name: 'My voice', files: [new Blob([wav], { type: 'audio/wav' })] });

  it('refuses voice cloning and speech to speech to an Illinois user until the terms are accepted', async () => {
    const account = await creatorAccount(ILLINOIS);
    expect((await consentOf(account)).bipa).toMatchObject({
      applies: true,
      accepted: false,
      accepted_at_unix: null,
      effective_date: '2024-05-31',
    });

    const clone = await cloneWith(account.sdk).catch((error: unknown) => error);
    expect(clone).toBeInstanceOf(ElevenLabsError);
    expect((clone as ElevenLabsError).statusCode).toBe(403);
    expect((clone as ElevenLabsError).body).toEqual({
      detail: { status: 'bipa_terms_required', message: bipaTerms.required },
    });

    const pvc = await call(account, 'POST', '/v1/voices/pvc', { body: { name: 'Pro', language: 'en' } });
    expect(pvc.statusCode).toBe(403);
    expect(detailOf(pvc).status).toBe('bipa_terms_required');

    const form = new FormData();
    form.append('audio', new Blob([wav], { type: 'audio/wav' }), 'me.wav');
    const sts = await fetch(`${baseUrl}/v1/speech-to-speech/${premadeVoiceId('Sarah')}`, {
      method: 'POST',
      headers: { 'xi-api-key': account.key },
      body: form,
    });
    expect(sts.status).toBe(403);
    expect(((await sts.json()) as { detail: { status: string } }).detail.status).toBe('bipa_terms_required');

    // Accepting needs a signed-in person, not a key.
    const byKey = await t.app.inject({
      method: 'POST',
      url: '/v1/user/accept-bipa-terms',
      headers: { 'xi-api-key': account.key },
    });
    expect(byKey.statusCode).toBe(403);
    const accepted = await call(account, 'POST', '/v1/user/accept-bipa-terms');
    expect(accepted.statusCode).toBe(200);
    const row = await storedUser(account.userId);
    expect(row.acceptedBipaTerms).toBe(true);
    expect(Math.abs((row.bipaTermsAcceptedAt?.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
    expect((await consentOf(account)).bipa.accepted).toBe(true);

    const { voiceId } = await cloneWith(account.sdk);
    expect(voiceId).toMatch(/^[A-Za-z0-9]{20}$/);
    const pvcAfter = await call(account, 'POST', '/v1/voices/pvc', { body: { name: 'Pro', language: 'en' } });
    expect(pvcAfter.statusCode).toBe(200);
  }, 120_000);

  it('places a user still unknown from the voice call itself', async () => {
    const account = await signUp();
    await db().update(workspaces).set({ tier: 'creator' }).where(eq(workspaces.id, account.workspaceId));
    const pvc = await call(account, 'POST', '/v1/voices/pvc', {
      ip: ILLINOIS,
      body: { name: 'Pro', language: 'en' },
    });
    expect(pvc.statusCode).toBe(403);
    expect(detailOf(pvc)).toEqual({ status: 'bipa_terms_required', message: bipaTerms.required });
    expect((await storedUser(account.userId)).geoLocation).toMatchObject({ country: 'us', region: 'il' });
  });

  it('compares the stored location case-insensitively and leaves other regions alone', async () => {
    const shouting = await signUp();
    const chicago = { country: 'US', region: 'IL', city: 'Chicago' };
    await db()
      .insert(userConsents)
      .values({ userId: shouting.userId, geoLocation: chicago })
      .onConflictDoUpdate({ target: userConsents.userId, set: { geoLocation: chicago } });
    await db().update(workspaces).set({ tier: 'creator' }).where(eq(workspaces.id, shouting.workspaceId));
    const refused = await call(shouting, 'POST', '/v1/voices/pvc', { body: { name: 'Pro', language: 'en' } });
    expect(detailOf(refused).status).toBe('bipa_terms_required');

    const washington = await signUp(WASHINGTON);
    await db().update(workspaces).set({ tier: 'creator' }).where(eq(workspaces.id, washington.workspaceId));
    const allowed = await call(washington, 'POST', '/v1/voices/pvc', {
      body: { name: 'Pro', language: 'en' },
    });
    expect(allowed.statusCode).toBe(200);
  });
});

describe('terms agreed to (accounts §3)', () => {
  it('records when the user agreed to a named set of terms, shown in GET /v1/user', async () => {
    const account = await signUp();
    const res = await call(account, 'POST', '/v1/user/agree-to-terms', { body: { terms: 'voice_design' } });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { terms_agreed_to: Record<string, number | null> };
    expect(Math.abs((body.terms_agreed_to.voice_design_unix ?? 0) - Date.now() / 1000)).toBeLessThan(60);
    expect(body.terms_agreed_to.licensing_unix).toBeNull();
    const user = UserResponse.parse((await call(account, 'GET', '/v1/user')).json());
    expect(user.terms_agreed_to.voice_design_unix).toBe(body.terms_agreed_to.voice_design_unix);
    expect(user.terms_agreed_to.conversational_ai_unix).toBeNull();
    const unknown = await call(account, 'POST', '/v1/user/agree-to-terms', { body: { terms: 'everything' } });
    expect(unknown.statusCode).toBe(422);
  });
});

describe('workspace data-training opt-out (accounts §3, §6)', () => {
  /** A second user seated in the owner's workspace with `role`, and a token for that workspace. */
  async function seat(owner: Account, role: 'admin' | 'editor' | 'member'): Promise<Account> {
    const other = await signUp();
    await db()
      .insert(workspaceMembers)
      .values({ workspaceId: owner.workspaceId, userId: other.userId, role });
    const secret = await t.deps.auth.signingSecret();
    const token = signAccessToken(
      { userId: other.userId, workspaceId: owner.workspaceId },
      secret,
      new Date(),
    );
    return { userId: other.userId, workspaceId: owner.workspaceId, token };
  }
  const readSetting = async (account: Account) => {
    const res = await call(account, 'GET', '/v1/workspace/training-opt-out');
    expect(res.statusCode).toBe(200);
    return TrainingOptOutResponse.parse(res.json());
  };
  const update = (account: Account, value: boolean) =>
    call(account, 'POST', '/v1/workspace/update-workspace', { body: { training_opt_out: value } });

  it('lets an admin read and change it, with the time of the change', async () => {
    const owner = await signUp();
    expect(await readSetting(owner)).toEqual({
      training_opt_out: { training_opt_out: false, timestamp_unix: null },
      can_change: true,
    });
    const res = await update(owner, true);
    expect(res.statusCode).toBe(200);
    const body = TrainingOptOutResponse.parse(res.json());
    expect(body.training_opt_out.training_opt_out).toBe(true);
    expect(Math.abs((body.training_opt_out.timestamp_unix ?? 0) - Date.now() / 1000)).toBeLessThan(60);
    expect(await readSetting(owner)).toEqual(body);
    const [row] = await db()
      .select()
      .from(workspaceConsents)
      .where(eq(workspaceConsents.workspaceId, owner.workspaceId));
    expect(row?.trainingOptOut).toBe(true);
  });

  it('refuses a member (403 in the error shape) and changes nothing', async () => {
    const owner = await signUp();
    const member = await seat(owner, 'member');
    expect((await readSetting(member)).can_change).toBe(false);
    const res = await update(member, true);
    expect(res.statusCode).toBe(403);
    expect(detailOf(res)).toEqual({ status: 'forbidden', message: trainingOptOutMessages.adminsOnly });
    const [row] = await db()
      .select()
      .from(workspaceConsents)
      .where(eq(workspaceConsents.workspaceId, owner.workspaceId));
    expect(row?.trainingOptOut ?? false).toBe(false);
    expect(row?.trainingOptOutAt ?? null).toBeNull();
  });

  it('lets an editor change it (an editor holds the admin rights)', async () => {
    const owner = await signUp();
    const editor = await seat(owner, 'editor');
    expect((await readSetting(editor)).can_change).toBe(true);
    expect((await update(editor, true)).statusCode).toBe(200);
    expect((await readSetting(owner)).training_opt_out.training_opt_out).toBe(true);
  });

  it('refuses someone who is no longer a member', async () => {
    const owner = await signUp();
    const admin = await seat(owner, 'admin');
    await db()
      .delete(workspaceMembers)
      .where(
        and(eq(workspaceMembers.workspaceId, owner.workspaceId), eq(workspaceMembers.userId, admin.userId)),
      );
    expect((await update(admin, true)).statusCode).toBe(401);
    expect((await call(admin, 'GET', '/v1/workspace/training-opt-out')).statusCode).toBe(401);
  });
});
