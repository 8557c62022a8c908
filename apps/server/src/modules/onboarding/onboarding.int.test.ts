import {
  ErrorResponse,
  ONBOARDING_CHECKLIST_ITEMS,
  type OnboardingChecklistItemId,
  OnboardingChecklistResponse,
  SessionResponse,
  UserResponse,
} from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../platform/db/client';
import { newId } from '../../platform/ids';
import { readAll } from '../../test/audio-probe';
import { createTestUser, signUpWithApiKey } from '../../test/factories';
import { newSpeechAccount, premadeVoiceId } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { completeChecklistStep, userOnboardingOf } from './onboarding.service';

let t: TestApp;
let baseUrl: string;
/** Speech to convert in the speech-to-speech trigger's test. */
let speechMp3: Buffer;

beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2', ENGINE_TIMEOUT_MS: '20000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { sdk } = await newSpeechAccount(t.app, baseUrl);
  speechMp3 = await readAll(
    await sdk.textToSpeech.convert(premadeVoiceId('Ryan'), {
      text: 'The meeting has been moved to Thursday afternoon. Please bring the report.',
      modelId: 'eleven_multilingual_v2',
    }),
  );
}, 60_000);
afterAll(() => t.close());

const SARAH = premadeVoiceId('Sarah');

interface Account {
  token: string;
  key: string;
  userId: string;
}

/** A new account signed up through the API (with a key made before any checklist exists). */
async function newAccount(): Promise<Account> {
  const created = await signUpWithApiKey(t.app);
  return { token: created.accessToken, key: created.apiKey, userId: created.userId };
}

type Method = 'GET' | 'POST';
const call = (account: Pick<Account, 'token'>, method: Method, url: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${account.token}` },
    ...(method === 'POST' ? { payload: (body ?? {}) as object } : {}),
  });
const withKey = (account: Pick<Account, 'key'>, method: Method, url: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { 'xi-api-key': account.key },
    ...(body === undefined ? {} : { payload: body as object }),
  });

const errorOf = (res: { json(): unknown }) => ErrorResponse.parse(res.json()).detail;
const userOf = async (account: Account) =>
  UserResponse.parse((await call(account, 'GET', '/v1/user')).json());
const checklistOf = async (account: Account) =>
  OnboardingChecklistResponse.parse((await call(account, 'GET', '/v1/user/onboarding-checklist')).json());

/** The items of the account's checklist that are complete, with their completion times. */
async function completedOf(account: Account): Promise<Partial<Record<OnboardingChecklistItemId, number>>> {
  const { checklist } = await checklistOf(account);
  return Object.fromEntries(
    (checklist?.items ?? [])
      .filter((item) => item.is_completed)
      .map((item) => [item.onboarding_checklist_item_id, item.completed_at_unix]),
  );
}

async function initiate(account: Account) {
  const res = await call(account, 'POST', '/v1/user/onboarding-checklist/initiate');
  expect(res.statusCode).toBe(200);
  return OnboardingChecklistResponse.parse(res.json());
}

const acknowledge = async (account: Account) => {
  const res = await call(account, 'POST', '/v1/user/onboarding-checklist/acknowledge');
  expect(res.statusCode).toBe(200);
  return (res.json() as { acknowledged: string[] }).acknowledged;
};

const SURVEY = {
  first_name: ' Ada ',
  role: 'developer',
  subrole: 'game_developer',
  timezone: 'Europe/Berlin',
  source: 'podcast',
};

describe('onboarding survey (accounts §3, §7)', () => {
  it('an account made by sign-up has onboarding to do; others keep the default (done)', async () => {
    const account = await newAccount();
    const user = await userOf(account);
    expect(user).toMatchObject({
      is_onboarding_completed: false,
      onboarding_survey: null,
      is_onboarding_checklist_completed: true,
      onboarding_checklist: null,
    });
    const { user: made } = await createTestUser(t.deps.database.db);
    // An account an operator made has no onboarding row: onboarded already.
    expect((await userOnboardingOf(t.deps.database.db, made.id)).is_onboarding_completed).toBe(true);
  });

  it('keeps the answers, marks onboarding done and fills an empty first name only', async () => {
    const account = await newAccount();
    expect((await userOf(account)).first_name).toBeNull();
    const res = await call(account, 'POST', '/v1/user/onboarding-survey-complete', SURVEY);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    const user = await userOf(account);
    expect(user.is_onboarding_completed).toBe(true);
    expect(user.first_name).toBe('Ada');
    expect(user.onboarding_survey).toEqual({
      first_name: 'Ada',
      role: 'developer',
      subrole: 'game_developer',
      timezone: 'Europe/Berlin',
      source: 'podcast',
    });

    const email = `named-${newId(8).toLowerCase()}@example.test`;
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/sign-up',
      remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      payload: { email, password: 'named-pass-1', first_name: 'Lin' },
    });
    const named = { token: SessionResponse.parse(signUp.json()).access_token, key: '', userId: '' };
    const answers = { first_name: 'Linnea', role: 'other', timezone: 'UTC' };
    expect((await call(named, 'POST', '/v1/user/onboarding-survey-complete', answers)).statusCode).toBe(200);
    const kept = await userOf(named);
    expect(kept.first_name).toBe('Lin');
    expect(kept.onboarding_survey).toEqual({
      first_name: 'Linnea',
      role: 'other',
      subrole: null,
      timezone: 'UTC',
      source: null,
    });
  });

  it('refuses bad answers with 422 invalid_request naming the field, and changes nothing', async () => {
    const account = await newAccount();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...SURVEY, role: undefined }, 'role'],
      [{ ...SURVEY, role: 'astronaut' }, 'role'],
      [{ ...SURVEY, timezone: 'Mars/Olympus_Mons' }, 'timezone'],
      [{ ...SURVEY, subrole: 'podcaster' }, 'subrole'],
      [{ ...SURVEY, first_name: '   ' }, 'first_name'],
      [{ ...SURVEY, source: 'carrier pigeon' }, 'source'],
    ];
    for (const [body, field] of cases) {
      const res = await call(account, 'POST', '/v1/user/onboarding-survey-complete', body);
      expect(res.statusCode, field).toBe(422);
      const detail = errorOf(res) as { status: string; errors?: { loc: (string | number)[] }[] };
      expect(detail.status).toBe('invalid_request');
      expect(detail.errors?.[0]?.loc).toEqual(['body', field]);
    }
    expect((await userOf(account)).is_onboarding_completed).toBe(false);
  });

  it('is 401 without a caller', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/user/onboarding-survey-complete',
      payload: SURVEY,
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('onboarding checklist (accounts §4, §7)', () => {
  it('starts once with every item open, and shows in the user document', async () => {
    const account = await newAccount();
    expect(await checklistOf(account)).toEqual({ checklist: null, is_onboarding_checklist_completed: true });
    const started = await initiate(account);
    expect(started.is_onboarding_checklist_completed).toBe(false);
    expect(started.checklist?.hidden).toBe(false);
    expect(started.checklist?.items).toEqual(
      ONBOARDING_CHECKLIST_ITEMS.map((id) => ({
        onboarding_checklist_item_id: id,
        is_completed: false,
        completed_at_unix: null,
        is_acknowledged: false,
      })),
    );
    const user = await userOf(account);
    expect(user.is_onboarding_checklist_completed).toBe(false);
    expect(user.onboarding_checklist).toEqual({
      checklist_id: started.checklist?.checklist_id,
      items: ONBOARDING_CHECKLIST_ITEMS.map((id) => ({
        onboarding_checklist_item_id: id,
        is_completed: false,
      })),
      hidden: false,
    });
    await call(account, 'POST', '/v1/user/onboarding-checklist/update', { item_id: 'create_dub' });
    const again = await initiate(account);
    expect(again.checklist?.checklist_id).toBe(started.checklist?.checklist_id);
    expect(Object.keys(await completedOf(account))).toEqual(['create_dub']);
  });

  it('update, hide and mark-complete before it is started are 409 conflict', async () => {
    const account = await newAccount();
    for (const [path, body] of [
      ['update', { item_id: 'design_voice' }],
      ['hide', {}],
      ['mark-complete', {}],
    ] as const) {
      const res = await call(account, 'POST', `/v1/user/onboarding-checklist/${path}`, body);
      expect(res.statusCode, path).toBe(409);
      expect(errorOf(res).status).toBe('conflict');
    }
    expect(await checklistOf(account)).toEqual({ checklist: null, is_onboarding_checklist_completed: true });
  });

  it('update completes an item once; an unknown item is 422', async () => {
    const account = await newAccount();
    await initiate(account);
    const update = (item_id: unknown) =>
      call(account, 'POST', '/v1/user/onboarding-checklist/update', { item_id });
    const first = await update('design_voice');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ newly_completed: true, is_onboarding_checklist_completed: false });
    const at = (await completedOf(account)).design_voice ?? 0;
    expect(Math.abs(at - Date.now() / 1000)).toBeLessThan(60);
    expect((await update('design_voice')).json()).toMatchObject({ newly_completed: false });
    expect((await completedOf(account)).design_voice).toBe(at);
    for (const bad of ['fly_to_the_moon', 42, undefined]) {
      const res = await update(bad);
      expect(res.statusCode).toBe(422);
      expect(errorOf(res).status).toBe('invalid_request');
    }
  });

  it('of many completions at once, exactly one completes the item', async () => {
    const account = await newAccount();
    await initiate(account);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(account, 'POST', '/v1/user/onboarding-checklist/update', { item_id: 'join_affiliate' }),
      ),
    );
    const newly = answers.map((res) => (res.json() as { newly_completed: boolean }).newly_completed);
    expect(newly.filter(Boolean)).toHaveLength(1);
  });

  it('a trigger before the checklist is started changes nothing', async () => {
    // The key of newAccount() was made before any checklist, and so is this speech.
    const account = await newAccount();
    expect(
      (await withKey(account, 'POST', `/v1/text-to-speech/${SARAH}`, { text: 'Early.' })).statusCode,
    ).toBe(200);
    await call(account, 'GET', '/v1/user/referral-link');
    await initiate(account);
    expect(await completedOf(account)).toEqual({});
    // The link exists already: asking again does not "generate" it (accounts §4 affiliate link generated).
    await call(account, 'GET', '/v1/user/referral-link');
    expect(await completedOf(account)).toEqual({});
  });

  it('speech, speech to speech, an API key and the referral link each complete their item once', async () => {
    const account = await newAccount();
    await initiate(account);

    expect(
      (await withKey(account, 'POST', `/v1/text-to-speech/${SARAH}`, { text: 'Hello.' })).statusCode,
    ).toBe(200);
    const spoken = (await completedOf(account)).generate_text_to_speech;
    expect(spoken).toBeTypeOf('number');

    const form = new FormData();
    form.append('audio', new Blob([speechMp3]), 'speech.mp3');
    const converted = await fetch(`${baseUrl}/v1/speech-to-speech/${SARAH}`, {
      method: 'POST',
      headers: { 'xi-api-key': account.key },
      body: form,
    });
    expect(converted.status).toBe(200);
    await converted.arrayBuffer();

    const key = await call(account, 'POST', '/v1/user/api-keys', { name: 'Second key' });
    expect(key.statusCode).toBe(201);
    expect((await call(account, 'GET', '/v1/user/referral-link')).statusCode).toBe(200);

    const done = await completedOf(account);
    expect(Object.keys(done).sort()).toEqual(
      ['generate_api_key', 'generate_speech_to_speech', 'generate_text_to_speech', 'join_affiliate'].sort(),
    );
    // The next trigger of a completed item leaves its completion as it was.
    await withKey(account, 'POST', `/v1/text-to-speech/${SARAH}/stream`, { text: 'Again.' });
    await call(account, 'POST', '/v1/user/api-keys', { name: 'Third key' });
    expect(await completedOf(account)).toEqual(done);
    expect(done.generate_text_to_speech).toBe(spoken);

    // Each completion is handed out once (accounts §4 "then not re-sent").
    expect((await acknowledge(account)).sort()).toEqual(Object.keys(done).sort());
    expect(await acknowledge(account)).toEqual([]);
  }, 60_000);

  it('the streamed, timestamped and dialogue forms of speech complete it too', async () => {
    for (const [path, body] of [
      [`/v1/text-to-speech/${SARAH}/stream`, { text: 'Streamed.' }],
      [`/v1/text-to-speech/${SARAH}/with-timestamps`, { text: 'Timed.' }],
      ['/v1/text-to-dialogue', { inputs: [{ text: 'A line.', voice_id: SARAH }] }],
    ] as const) {
      const account = await newAccount();
      await initiate(account);
      const res = await withKey(account, 'POST', path, body);
      expect(res.statusCode, path).toBe(200);
      expect(Object.keys(await completedOf(account)), path).toEqual(['generate_text_to_speech']);
    }
  }, 60_000);

  it('a designed voice completes design_voice; adding it from the library completes add_voice_to_voice_lab', async () => {
    const designer = await newAccount();
    await initiate(designer);
    // German: designed on a classic base rather than three Kokoro blends measured first (the checklist,
    // not the engine, is the point here).
    const design = await withKey(designer, 'POST', '/v1/text-to-voice/design', {
      voice_description: 'A calm German narrator with a deep voice and a slow pace.',
    });
    expect(design.statusCode).toBe(200);
    const generatedVoiceId = (design.json() as { previews: { generated_voice_id: string }[] }).previews[0]
      ?.generated_voice_id;
    expect(Object.keys(await completedOf(designer))).toEqual([]);
    const created = await withKey(designer, 'POST', '/v1/text-to-voice', {
      voice_name: 'Narrator',
      voice_description: 'A calm German narrator with a deep voice and a slow pace.',
      generated_voice_id: generatedVoiceId,
    });
    expect(created.statusCode).toBe(200);
    expect(Object.keys(await completedOf(designer))).toEqual(['design_voice']);

    const voiceId = (created.json() as { voice_id: string }).voice_id;
    const shared = await withKey(designer, 'POST', `/v1/voices/${voiceId}/share`, { enabled: true });
    expect(shared.statusCode).toBe(200);
    const publicOwnerId = (shared.json() as { sharing: { public_owner_id: string } }).sharing.public_owner_id;
    const listener = await newAccount();
    await initiate(listener);
    const added = await withKey(listener, 'POST', `/v1/voices/add/${publicOwnerId}/${voiceId}`, {
      new_name: 'The narrator',
    });
    expect(added.statusCode).toBe(200);
    expect(Object.keys(await completedOf(listener))).toEqual(['add_voice_to_voice_lab']);
  }, 60_000);

  it('hands each completion out once, even to calls at once', async () => {
    const account = await newAccount();
    await initiate(account);
    expect(await acknowledge(account)).toEqual([]);
    await call(account, 'POST', '/v1/user/onboarding-checklist/update', { item_id: 'create_dub' });
    const answers = await Promise.all(Array.from({ length: 4 }, () => acknowledge(account)));
    expect(answers.flat()).toEqual(['create_dub']);
    const { checklist } = await checklistOf(account);
    expect(checklist?.items.find((item) => item.onboarding_checklist_item_id === 'create_dub')).toMatchObject(
      {
        is_completed: true,
        is_acknowledged: true,
      },
    );
  });

  it('hide hides the list (its items still complete); mark-complete marks it complete', async () => {
    const account = await newAccount();
    await initiate(account);
    const hidden = await call(account, 'POST', '/v1/user/onboarding-checklist/hide');
    expect(hidden.statusCode).toBe(200);
    expect(OnboardingChecklistResponse.parse(hidden.json()).checklist?.hidden).toBe(true);
    expect((await userOf(account)).onboarding_checklist?.hidden).toBe(true);
    await call(account, 'POST', '/v1/user/api-keys', { name: 'Hidden list' });
    expect(Object.keys(await completedOf(account))).toEqual(['generate_api_key']);

    const marked = await call(account, 'POST', '/v1/user/onboarding-checklist/mark-complete');
    expect(marked.statusCode).toBe(200);
    expect(OnboardingChecklistResponse.parse(marked.json()).is_onboarding_checklist_completed).toBe(true);
    expect((await userOf(account)).is_onboarding_checklist_completed).toBe(true);
  });

  it('a checklist that fails never fails what triggered it: the failure is logged', async () => {
    const broken = {
      update: () => {
        throw new Error('the database is gone');
      },
    } as unknown as Db;
    const warn = vi.fn();
    await expect(
      completeChecklistStep({ db: broken, logger: { warn } }, 'u1', 'generate_text_to_speech'),
    ).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledOnce();
  });
});
