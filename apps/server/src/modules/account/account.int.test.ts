import { ElevenLabsClient, ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import {
  ErrorResponse,
  ListOutboxEmailsResponse,
  MfaChallengeResponse,
  PREMADE_VOICES,
  SessionResponse,
  UserResponse,
} from '@parla/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { createTestApp, type TestApp } from '../../test/test-app';
import { totpCode, totpStep } from '../auth/totp';
import { userReferrals } from '../growth/growth.tables';
import { historyItems } from '../history/history.tables';
import { getUser } from '../users';

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const PASSWORD = 'correct-horse-9';
const client = () => `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const newEmail = () => `lin-${newId(8).toLowerCase()}@example.test`;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (
  method: Method,
  url: string,
  options: {
    body?: unknown;
    token?: string;
    key?: string;
    ip?: string;
    headers?: Record<string, string>;
  } = {},
) =>
  t.app.inject({
    method,
    url,
    remoteAddress: options.ip ?? client(),
    ...(options.body === undefined ? {} : { payload: options.body as object }),
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.key ? { 'xi-api-key': options.key } : {}),
      ...options.headers,
    },
  });
const statusOf = (res: { json(): unknown }) => ErrorResponse.parse(res.json()).detail.status;

async function signUp() {
  const email = newEmail();
  const res = await call('POST', '/v1/auth/sign-up', {
    body: { email, password: PASSWORD, first_name: 'Lin' },
  });
  expect(res.statusCode).toBe(201);
  return { email, session: SessionResponse.parse(res.json()) };
}

async function createKey(token: string, body: Record<string, unknown> = { name: 'CI' }) {
  const res = await call('POST', '/v1/user/api-keys', { token, body });
  expect(res.statusCode).toBe(201);
  return res.json() as { xi_api_key: string; key_id: string; api_key: { hint: string } };
}

describe('the user document', () => {
  it('answers the spec and public API fields, for a token and for a key', async () => {
    const { email, session } = await signUp();
    const res = await call('GET', '/v1/user', { token: session.access_token });
    expect(res.statusCode).toBe(200);
    const user = UserResponse.parse(res.json());
    expect(user).toMatchObject({
      user_id: session.user_id,
      workspace_id: session.workspace_id,
      email,
      first_name: 'Lin',
      is_new_user: true,
      seat_type: 'workspace_admin',
      email_verified: false,
      xi_api_key_preview: null,
      totp_mfa_factor: null,
      subscription: {
        tier: 'free',
        character_limit: 10_000,
        voice_limit: 3,
        max_voice_add_edits: 55,
        status: 'free',
      },
      // accounts §3's fields for features that come later, as they stand for a new user.
      voices: [],
      prompts_shown: { long_content_use_projects: false, dubbing_use_cases_banner: false },
      terms_agreed_to: { conversational_ai_unix: null, privacy_unix: null },
      onboarding_survey: null,
      onboarding_checklist: null,
      profile_page_handle: null,
      feature_configs: { feedback_enabled: true, tts_video_generation: true },
    });
    expect(Math.abs(user.created_at - Date.now() / 1000)).toBeLessThan(60);
    const { xi_api_key, api_key } = await createKey(session.access_token);
    const byKey = UserResponse.parse((await call('GET', '/v1/user', { key: xi_api_key })).json());
    expect(byKey.user_id).toBe(session.user_id);
    expect(byKey.xi_api_key_preview).toBe(api_key.hint);
  });

  it('is 401 without a caller', async () => {
    const res = await call('GET', '/v1/user');
    expect(res.statusCode).toBe(401);
    expect(statusOf(res)).toBe('unauthorized');
  });

  it('edits the name, locale and metadata, and keeps the character-limit extension to admins', async () => {
    const { session } = await signUp();
    const token = session.access_token;
    expect(
      (await call('POST', '/v1/user/edit', { token, body: { first_name: 'Linnea', locale: 'sv' } }))
        .statusCode,
    ).toBe(200);
    const metadata = { ccpa_opt_out: true, geo_location: { country: 'us', region: 'il', city: 'Chicago' } };
    expect((await call('POST', '/v1/user/edit-user-metadata', { token, body: metadata })).statusCode).toBe(
      200,
    );
    expect((await call('POST', '/v1/user/dismiss-moderation-warning', { token })).statusCode).toBe(200);
    const unknownField = await call('POST', '/v1/user/edit-user-metadata', {
      token,
      body: { is_producer: true },
    });
    expect(unknownField.statusCode).toBe(422);
    const user = UserResponse.parse((await call('GET', '/v1/user', { token })).json());
    expect(user).toMatchObject({
      first_name: 'Linnea',
      locale: 'sv',
      ccpa_opt_out: true,
      geo_location: metadata.geo_location,
      moderation_warning_dismissed: true,
      is_producer: false,
    });
  });

  it('mails the opt-out link when the user opts in to product updates', async () => {
    const { email, session } = await signUp();
    const body = { agrees_to_product_updates: true };
    await call('POST', '/v1/user/edit-user-metadata', { token: session.access_token, body });
    const mails = ListOutboxEmailsResponse.parse(
      (await call('GET', `/dev/mailbox?to=${email}`)).json(),
    ).emails;
    expect(mails.map((m) => m.kind).sort()).toEqual(['opt_out', 'verification']);
    expect(mails.find((m) => m.kind === 'opt_out')?.text).toContain(
      '/auth/action?mode=optOutOfUpdates&oobCode=',
    );
  });

  it('answers the other user calls', async () => {
    const { email, session } = await signUp();
    const token = session.access_token;
    const pre = await call('POST', '/v1/user/pre-sign-up', { body: { email } });
    expect(pre.json()).toEqual({ status: 'ok', email_available: false });
    const free = await call('POST', '/v1/user/pre-sign-up', { body: { email: newEmail(), pid: 'p1' } });
    expect(free.json()).toEqual({ status: 'ok', email_available: true });

    expect(
      (await call('POST', '/v1/user/post-registration-user-setup', { token, body: { pid: 'p1', xid: 'x1' } }))
        .statusCode,
    ).toBe(200);
    const [referral] = await t.deps.database.db
      .select()
      .from(userReferrals)
      .where(eq(userReferrals.userId, session.user_id));
    expect(referral?.signupSource).toEqual({ pid: 'p1', xid: 'x1' });

    const rand1 = (await call('GET', '/v1/user/rand', { token })).json().rand;
    const rand2 = (await call('GET', '/v1/user/rand', { token })).json().rand;
    expect(rand1).toBe(rand2);
    expect(rand1).toBeGreaterThanOrEqual(0);
    expect(rand1).toBeLessThan(1);

    expect((await call('POST', '/v1/user/generate-name', { token })).json().name).toMatch(
      /^[A-Z][a-z]+ [A-Z][a-z]+ \d{2}$/,
    );

    const fp = { fingerprint: 'device-fingerprint-1' };
    expect(
      (await call('POST', '/v1/user/record-device-fingerprint', { token, body: fp })).json().new_device,
    ).toBe(true);
    expect(
      (await call('POST', '/v1/user/record-device-fingerprint', { token, body: fp })).json().new_device,
    ).toBe(false);

    const link1 = (await call('GET', '/v1/user/referral-link', { token })).json().referral_link;
    const link2 = (await call('GET', '/v1/user/referral-link', { token })).json().referral_link;
    expect(link1).toMatch(/\/\?via=[0-9a-z]{10}$/);
    expect(link2).toBe(link1);
  });
});

describe('API keys', () => {
  it('creates (shown once, stored hashed), lists, edits, disables and deletes a key', async () => {
    const { session } = await signUp();
    const token = session.access_token;
    const created = await createKey(token, { name: 'Build server', character_limit: 5000 });
    expect(created.xi_api_key).toMatch(/^sk_[0-9a-f]{48}$/);
    const listed = (await call('GET', '/v1/user/api-keys', { token })).json().api_keys;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      key_id: created.key_id,
      name: 'Build server',
      character_limit: 5000,
      is_disabled: false,
    });
    expect(JSON.stringify(listed)).not.toContain(created.xi_api_key);

    const edited = await call('POST', `/v1/user/api-keys/${created.key_id}/edit`, {
      token,
      body: { name: 'Renamed', character_limit: null, is_disabled: true },
    });
    expect(edited.json()).toMatchObject({ name: 'Renamed', character_limit: null, is_disabled: true });
    const disabled = await call('GET', '/v1/user', { key: created.xi_api_key });
    expect(disabled.statusCode).toBe(401);
    expect(ErrorResponse.parse(disabled.json()).detail).toEqual({
      status: 'invalid_api_key',
      message: 'Invalid API key',
    });
    await call('POST', `/v1/user/api-keys/${created.key_id}/edit`, { token, body: { is_disabled: false } });
    expect((await call('GET', '/v1/user', { key: created.xi_api_key })).statusCode).toBe(200);

    expect((await call('DELETE', `/v1/user/api-keys/${created.key_id}`, { token })).json()).toEqual({
      status: 'ok',
    });
    expect((await call('GET', '/v1/user', { key: created.xi_api_key })).statusCode).toBe(401);
    expect((await call('GET', '/v1/user/api-keys', { token })).json().api_keys).toEqual([]);
  });

  it('lets a key of user A neither read user B nor touch B’s keys', async () => {
    const a = await signUp();
    const b = await signUp();
    const keyA = await createKey(a.session.access_token);
    const keyB = await createKey(b.session.access_token);
    const me = UserResponse.parse((await call('GET', '/v1/user', { key: keyA.xi_api_key })).json());
    expect(me.user_id).toBe(a.session.user_id);
    const listed = (await call('GET', '/v1/user/api-keys', { key: keyA.xi_api_key })).json().api_keys;
    expect(listed.map((k: { key_id: string }) => k.key_id)).toEqual([keyA.key_id]);
    // A's session cannot reach B's keys: they are "not found".
    const token = a.session.access_token;
    const edit = await call('POST', `/v1/user/api-keys/${keyB.key_id}/edit`, { token, body: { name: 'x' } });
    expect(edit.statusCode).toBe(404);
    expect((await call('DELETE', `/v1/user/api-keys/${keyB.key_id}`, { token })).statusCode).toBe(404);
    expect((await call('GET', '/v1/user', { key: keyB.xi_api_key })).statusCode).toBe(200);
  });

  it('keeps account security out of an API key’s reach: no key changes, second factor, email or deletion', async () => {
    const { session } = await signUp();
    const { xi_api_key: key, key_id } = await createKey(session.access_token);
    const refused = [
      await call('POST', '/v1/user/api-keys', { key, body: { name: 'more' } }),
      await call('POST', `/v1/user/api-keys/${key_id}/edit`, { key, body: { character_limit: null } }),
      await call('DELETE', `/v1/user/api-keys/${key_id}`, { key }),
      await call('POST', '/v1/user/update-mfa-factors', { key, body: { action: 'enroll_totp' } }),
      await call('POST', '/v1/user/backup-code', { key }),
      await call('POST', '/v1/user/edit-user-metadata', { key, body: { ccpa_opt_out: true } }),
      await call('POST', '/v1/user/send-email-change-verification', { key, body: { new_email: newEmail() } }),
      await call('PUT', '/v1/user/email?verification_code=x&is_reverting=false', { key }),
      await call('DELETE', '/v1/user/delete', { key }),
    ];
    expect(refused.map((res) => [res.statusCode, statusOf(res)])).toEqual(
      refused.map(() => [403, 'forbidden']),
    );
    expect((await call('GET', '/v1/user', { key })).statusCode).toBe(200);
  });

  it('serves the official ElevenLabs client: user.get() and user.subscription.get() with a key', async () => {
    const { session } = await signUp();
    const { xi_api_key } = await createKey(session.access_token);
    const sdk = new ElevenLabsClient({ apiKey: xi_api_key, baseUrl, maxRetries: 0 });
    const user = await sdk.user.get();
    expect(user.userId).toBe(session.user_id);
    expect(user.subscription.tier).toBe('free');
    expect(user.seatType).toBe('workspace_admin');
    const subscription = await sdk.user.subscription.get();
    expect(subscription).toMatchObject({
      tier: 'free',
      characterCount: 0,
      characterLimit: 10_000,
      status: 'free',
    });

    const wrong = new ElevenLabsClient({ apiKey: `sk_${'0'.repeat(48)}`, baseUrl, maxRetries: 0 });
    const error = await wrong.user.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElevenLabsError);
    expect((error as ElevenLabsError).statusCode).toBe(401);
  });
});

describe('two-factor authentication', () => {
  it('enrols with a code, asks for it at sign-in, refuses a replayed code, and is removed with the backup code', async () => {
    const { email, session } = await signUp();
    const token = session.access_token;
    const enrol = await call('POST', '/v1/user/update-mfa-factors', {
      token,
      body: { action: 'enroll_totp' },
    });
    const { totp_secret: secret, otpauth_url } = enrol.json();
    expect(otpauth_url).toContain(`secret=${secret}`);
    const wrong = await call('POST', '/v1/user/update-mfa-factors', {
      token,
      body: { action: 'verify_totp', code: '000000' },
    });
    expect(statusOf(wrong)).toBe('invalid_mfa_code');
    const step = totpStep(new Date());
    const verify = await call('POST', '/v1/user/update-mfa-factors', {
      token,
      body: { action: 'verify_totp', code: totpCode(secret, step - 1) },
    });
    const { backup_code } = verify.json();
    expect(verify.json().totp_mfa_factor).toEqual({ enabled: true });
    expect(backup_code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);

    const signIn = await call('POST', '/v1/auth/sign-in', { body: { email, password: PASSWORD } });
    const challenge = MfaChallengeResponse.parse(signIn.json());
    expect(signIn.cookies.find((c) => c.name === 'xi_refresh')).toBeUndefined();
    // The MFA token is not an access token.
    expect((await call('GET', '/v1/user', { token: challenge.mfa_token })).statusCode).toBe(401);
    const replay = await call('POST', '/v1/auth/sign-in/mfa', {
      body: { mfa_token: challenge.mfa_token, code: totpCode(secret, step - 1) },
    });
    expect(statusOf(replay)).toBe('invalid_mfa_code');
    const second = await call('POST', '/v1/auth/sign-in/mfa', {
      body: { mfa_token: challenge.mfa_token, code: totpCode(secret, step) },
    });
    expect(second.statusCode).toBe(200);
    expect(SessionResponse.parse(second.json()).user_id).toBe(session.user_id);
    expect(second.cookies.find((c) => c.name === 'xi_refresh')?.httpOnly).toBe(true);

    // Lost device: the backup code removes the factor during a sign-in and signs in.
    const again = MfaChallengeResponse.parse(
      (await call('POST', '/v1/auth/sign-in', { body: { email, password: PASSWORD } })).json(),
    );
    const badBackup = await call('POST', '/v1/user/backup-code/aaaa-bbbb-cccc-dddd/remove-mfa', {
      body: { mfa_token: again.mfa_token },
    });
    expect(statusOf(badBackup)).toBe('invalid_mfa_code');
    const removed = await call('POST', `/v1/user/backup-code/${backup_code.toUpperCase()}/remove-mfa`, {
      body: { mfa_token: again.mfa_token },
    });
    expect(removed.json().session.user_id).toBe(session.user_id);
    const plain = await call('POST', '/v1/auth/sign-in', { body: { email, password: PASSWORD } });
    expect(SessionResponse.safeParse(plain.json()).success).toBe(true);
    expect(UserResponse.parse((await call('GET', '/v1/user', { token })).json()).totp_mfa_factor).toBeNull();
  });

  it('removes the factor with a current code, and makes a new backup code that replaces the old', async () => {
    const { session } = await signUp();
    const token = session.access_token;
    const { totp_secret: secret } = (
      await call('POST', '/v1/user/update-mfa-factors', { token, body: { action: 'enroll_totp' } })
    ).json();
    const step = totpStep(new Date());
    const first = (
      await call('POST', '/v1/user/update-mfa-factors', {
        token,
        body: { action: 'verify_totp', code: totpCode(secret, step - 1) },
      })
    ).json().backup_code;
    const second = (await call('POST', '/v1/user/backup-code', { token })).json().backup_code;
    expect(second).not.toBe(first);
    expect(statusOf(await call('POST', `/v1/user/backup-code/${first}/remove-mfa`, { token }))).toBe(
      'invalid_mfa_code',
    );
    const remove = await call('POST', '/v1/user/update-mfa-factors', {
      token,
      body: { action: 'remove_totp', code: totpCode(secret, step) },
    });
    expect(remove.json()).toEqual({ totp_mfa_factor: null });
    expect(statusOf(await call('POST', `/v1/user/backup-code/${second}/remove-mfa`, { token }))).toBe(
      'invalid_mfa_code',
    );
  });
});

describe('second-factor guessing', () => {
  it('allows 10 codes per account in 15 minutes, from any address', async () => {
    const { email, session } = await signUp();
    const token = session.access_token;
    const { totp_secret: secret } = (
      await call('POST', '/v1/user/update-mfa-factors', { token, body: { action: 'enroll_totp' } })
    ).json();
    await call('POST', '/v1/user/update-mfa-factors', {
      token,
      body: { action: 'verify_totp', code: totpCode(secret, totpStep(new Date())) },
    });
    const challenge = MfaChallengeResponse.parse(
      (await call('POST', '/v1/auth/sign-in', { body: { email, password: PASSWORD } })).json(),
    );
    // One try was the enrolment; nine wrong guesses from different addresses (call() picks one each time).
    for (let i = 0; i < 9; i += 1) {
      const wrong = await call('POST', '/v1/auth/sign-in/mfa', {
        body: { mfa_token: challenge.mfa_token, code: '000000' },
      });
      expect(statusOf(wrong)).toBe('invalid_mfa_code');
    }
    const limited = await call('POST', '/v1/auth/sign-in/mfa', {
      body: { mfa_token: challenge.mfa_token, code: totpCode(secret, totpStep(new Date()) + 1) },
    });
    expect(limited.statusCode).toBe(429);
    expect(statusOf(limited)).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('account deletion', () => {
  it('needs a verified sensitive-action code, then removes the user, workspace, keys, sessions and audio files', async () => {
    const { email, session } = await signUp();
    const token = session.access_token;
    const { xi_api_key } = await createKey(token);
    const kevin = PREMADE_VOICES.find((v) => v.name === 'Kevin')?.voice_id ?? '';
    const spoken = await call('POST', `/v1/text-to-speech/${kevin}`, { token, body: { text: 'Goodbye.' } });
    expect(spoken.statusCode).toBe(200);
    const items = await t.deps.database.db
      .select({ audioKey: historyItems.audioKey })
      .from(historyItems)
      .where(eq(historyItems.workspaceId, session.workspace_id));
    expect(items).toHaveLength(1);
    const audioKey = items[0]?.audioKey ?? '';
    expect(await t.deps.storage.stat(audioKey)).toBeDefined();
    // A share video's preview, kept under the workspace.
    const itemId = spoken.headers['history-item-id'] as string;
    const preview = await call('GET', `/v1/history/${itemId}/video/preview?theme=dark`, { token });
    expect(preview.statusCode).toBe(200);
    const videos = `share-videos/${session.workspace_id}/`;
    expect(await t.deps.storage.list(videos)).toHaveLength(1);
    // A designed voice (its previews kept under the workspace) with its own preview made; German, so a
    // classic base speaks it rather than three Kokoro blends measured first (the files are the point).
    const design = await call('POST', '/v1/text-to-voice/design', {
      token,
      body: { voice_description: 'A calm, deep German male narrator.' },
    });
    const generatedId = design.json().previews[0].generated_voice_id as string;
    const saved = await call('POST', '/v1/text-to-voice', {
      token,
      body: { voice_name: 'Narrator', voice_description: 'Calm', generated_voice_id: generatedId },
    });
    const voiceId = saved.json().voice_id as string;
    expect((await call('GET', `/v1/voices/${voiceId}/preview`)).statusCode).toBe(200);
    const designs = `voice-design/${session.workspace_id}/`;
    expect(await t.deps.storage.list(designs)).toHaveLength(3);
    const refused = await call('DELETE', '/v1/user/delete', { token });
    expect(statusOf(refused)).toBe('sensitive_action_verification_required');
    expect(await t.deps.storage.stat(audioKey)).toBeDefined();

    await call('POST', '/v1/user/prepare-internal-verification', { token, body: { email } });
    const mails = ListOutboxEmailsResponse.parse(
      (await call('GET', `/dev/mailbox?to=${email}`)).json(),
    ).emails;
    const text = mails.find((m) => m.subject.startsWith('Confirm it is you'))?.text ?? '';
    const code =
      new URL(text.split(/\s+/).find((w) => w.includes('internalCode=')) ?? '').searchParams.get(
        'internalCode',
      ) ?? '';
    await call('POST', '/v1/user/verify-sensitive-action-code', { token, body: { verification_code: code } });
    const deleted = await call('DELETE', '/v1/user/delete', {
      token,
      headers: { 'xi-sensitive-action-code': code },
    });
    expect(deleted.json()).toEqual({ status: 'ok' });

    expect(await getUser(t.deps.database.db, session.user_id)).toBeUndefined();
    expect(await t.deps.storage.stat(audioKey)).toBeUndefined();
    expect(await t.deps.storage.list(videos)).toEqual([]);
    expect(await t.deps.storage.list(designs)).toEqual([]);
    expect(await t.deps.storage.stat(`voice-previews/own/${voiceId}.mp3`)).toBeUndefined();
    expect((await call('GET', '/v1/user', { token })).statusCode).toBe(401);
    expect((await call('GET', '/v1/user', { key: xi_api_key })).statusCode).toBe(401);
    expect((await call('POST', '/v1/auth/sign-in', { body: { email, password: PASSWORD } })).statusCode).toBe(
      401,
    );
  });
});

/** The spec's sentence for a rate-limited call (accounts §5 "Email-action results"). */
const TOO_MANY_ATTEMPTS = 'Too many attempts, please try again in a few minutes.';

describe('rate limits per client address', () => {
  it.each<[string, number, (ip: string, token: string) => Promise<LightMyRequestResponse>]>([
    [
      'edit-user-metadata, 30 in 15 minutes',
      30,
      (ip, token) =>
        call('POST', '/v1/user/edit-user-metadata', { ip, token, body: { ccpa_opt_out: false } }),
    ],
    [
      'pre-sign-up, 30 in 15 minutes',
      30,
      (ip) => call('POST', '/v1/user/pre-sign-up', { ip, body: { email: newEmail() } }),
    ],
    [
      'prepare-internal-verification, 5 in 15 minutes',
      5,
      (ip, token) =>
        call('POST', '/v1/user/prepare-internal-verification', { ip, token, body: { email: newEmail() } }),
    ],
    [
      'verify-sensitive-action-code, 20 in 15 minutes',
      20,
      (ip, token) =>
        call('POST', '/v1/user/verify-sensitive-action-code', {
          ip,
          token,
          body: { verification_code: 'wrong' },
        }),
    ],
    [
      'send-email-change-verification, 5 in 15 minutes',
      5,
      (ip, token) =>
        call('POST', '/v1/user/send-email-change-verification', {
          ip,
          token,
          body: { new_email: newEmail() },
        }),
    ],
    [
      'email change or revert, 20 in 15 minutes',
      20,
      (ip) => call('PUT', '/v1/user/email?verification_code=wrong&is_reverting=true', { ip }),
    ],
  ])('%s', async (_route, max, send) => {
    const token = (await signUp()).session.access_token;
    const ip = client();
    // Below 429: answered (or refused) by the route itself, not limited and not failing.
    for (let i = 0; i < max; i += 1) expect((await send(ip, token)).statusCode).toBeLessThan(429);
    const limited = await send(ip, token);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ detail: { status: 'rate_limited', message: TOO_MANY_ATTEMPTS } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
