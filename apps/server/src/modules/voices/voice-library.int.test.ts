import { ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { maxVoiceAddEdits, tierLimits } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, newSpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { workspaces } from '../workspaces/workspaces.tables';
import { BUILT_IN_OWNER_ID, BUILT_IN_VOICES } from './built-in-voices.catalog';
import { insertVoice } from './voices.store';
import { voiceAddEditCounts } from './voices.tables';

let t: TestApp;
let baseUrl: string;
const db = () => t.deps.database.db;

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/**
 * A voice shared in the library by a workspace, written as the share leaves it (no engine needed: what is
 * tested here is what the library's rows hold, not how a clone is made).
 */
async function sharedVoice(
  id: string,
  language: string,
  labels: Record<string, string>,
  sharing = 'enabled',
) {
  const owner = await newSpeechAccount(t.app, baseUrl);
  await insertVoice(db(), {
    id,
    workspaceId: owner.workspaceId,
    name: `Shared ${id}`,
    labels,
    category: 'cloned',
    language,
    baseVoiceId: 'EXAVITQu4vr4xnSDxMaL',
    sharingStatus: sharing as 'enabled',
    publicOwnerId: `owner-${id}`,
    sharedAt: new Date(),
  });
}

describe('GET /v1/voices/accents through the official client', () => {
  it('lists the accents the library voices have, by language, each usable as the shared-voices filter', async () => {
    await sharedVoice('accent-welsh-1', 'en', { gender: 'female', accent: 'Welsh' });
    await sharedVoice('accent-welsh-2', 'en', { gender: 'male', accent: 'welsh' });
    // Not shared (any more): its accent is in no library voice.
    await sharedVoice('accent-hidden', 'en', { accent: 'cornish' }, 'disabled');
    const account = await newSpeechAccount(t.app, baseUrl);

    const { accents } = await account.sdk.voices.accents.get();
    const codes = accents.map((a) => a.code);
    // Every built-in voice's accent, in its language, and the shared voice's once (case folded).
    for (const voice of BUILT_IN_VOICES)
      expect(codes).toContain(`${voice.language}-${voice.labels.accent.replaceAll(' ', '-')}`);
    expect(accents.filter((a) => a.accent === 'welsh')).toEqual([
      { accent: 'welsh', language: 'en', code: 'en-welsh', name: 'Welsh' },
    ]);
    expect(codes).not.toContain('en-cornish');
    expect(new Set(codes).size).toBe(codes.length);
    expect(accents.find((a) => a.code === 'en-new-york')).toEqual({
      accent: 'new york',
      language: 'en',
      code: 'en-new-york',
      name: 'New York',
    });

    // The `accent` value filters the library (what the SDK documents it for).
    const welsh = await account.sdk.voices.getShared({ accent: 'welsh', pageSize: 100 });
    expect(welsh.voices.map((v) => v.voiceId).sort()).toEqual(['accent-welsh-1', 'accent-welsh-2']);

    const german = await account.sdk.voices.accents.get({ language: 'de' });
    expect(german.accents.length).toBeGreaterThan(0);
    expect(german.accents.every((a) => a.language === 'de')).toBe(true);

    // An English-only model: the accents of the voices it speaks, English ones.
    const english = await account.sdk.voices.accents.get({ modelId: 'eleven_flash_v2' });
    expect(english.accents.length).toBeGreaterThan(0);
    expect(english.accents.every((a) => a.language === 'en')).toBe(true);
  });

  it('refuses a model that does not exist here with a 422 on model_id, and asks for a key', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const error = await account.sdk.voices.accents.get({ modelId: 'no_such_model' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElevenLabsError);
    expect((error as ElevenLabsError).statusCode).toBe(422);
    const anonymous = await t.app.inject({ method: 'GET', url: '/v1/voices/accents' });
    expect(anonymous.statusCode).toBe(401);
    const ok = await callAs(t.app, account, 'GET', '/v1/voices/accents?language=xx');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ accents: [] });
  });
});

describe('the static paths under /v1/voices/', () => {
  it('each one the official client calls has its own route, not the voice-id route', () => {
    // From the SDK's clients (@elevenlabs/elevenlabs-js 2.73): every call under /v1/voices/ whose path has
    // no id in it. Without a route of its own, `/v1/voices/:voice_id` answers it as an unknown voice.
    const calls = [
      ['GET', '/v1/voices/accents'],
      ['GET', '/v1/voices/settings/default'],
      ['POST', '/v1/voices/add'],
      ['GET', '/v1/voices/collections'],
      ['POST', '/v1/voices/collections'],
      ['POST', '/v1/voices/pvc'],
    ] as const;
    for (const [method, url] of calls) expect(t.app.hasRoute({ method, url }), `${method} ${url}`).toBe(true);
  });
});

describe('GET /v1/shared-voices/languages', () => {
  it('lists only the languages some library voice speaks, each with its number of voices', async () => {
    await sharedVoice('language-fi-1', 'fi', { accent: 'standard' });
    // Not shared: Danish has no library voice.
    await sharedVoice('language-da-1', 'da', { accent: 'standard' }, 'disabled');
    const account = await newSpeechAccount(t.app, baseUrl);
    const answer = await callAs(t.app, account, 'GET', '/v1/shared-voices/languages');
    expect(answer.statusCode).toBe(200);
    const { languages } = answer.json() as {
      languages: { language: string; name: string; voice_count: number }[];
    };
    const codes = languages.map((l) => l.language);
    for (const voice of BUILT_IN_VOICES) expect(codes).toContain(voice.language);
    expect(codes).toContain('fi');
    expect(codes).not.toContain('da');
    expect(languages.find((l) => l.language === 'fi')).toEqual({
      language: 'fi',
      name: 'Finnish',
      voice_count: 1,
    });
    // Each count is what the library's language filter finds, and none is empty.
    for (const language of languages) {
      expect(language.voice_count).toBeGreaterThan(0);
      const page = await account.sdk.voices.getShared({ language: language.language, pageSize: 1 });
      expect(page.totalCount, language.language).toBe(language.voice_count);
    }
    // In the order a menu lists them: by name.
    expect(languages.map((l) => l.name)).toEqual([...languages.map((l) => l.name)].sort());
    expect((await t.app.inject({ method: 'GET', url: '/v1/shared-voices/languages' })).statusCode).toBe(401);
  });
});

describe('adding library voices at once', () => {
  it('counts the adds one after the other: never past the plan’s adds and edits, on either database', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    await db().update(workspaces).set({ tier: 'creator' }).where(eq(workspaces.id, account.workspaceId));
    const max = maxVoiceAddEdits(tierLimits.creator.voiceLimit);
    await db()
      .insert(voiceAddEditCounts)
      .values({ workspaceId: account.workspaceId, count: max - 2 });
    // Six of the built-in library voices (seeded with the app), added at once.
    const ids = BUILT_IN_VOICES.slice(0, 6).map((v) => v.voice_id);
    const answers = await Promise.all(
      ids.map((id) =>
        callAs(t.app, account, 'POST', `/v1/voices/add/${BUILT_IN_OWNER_ID}/${id}`, { new_name: id }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(2);
    expect(new Set(answers.filter((a) => a.statusCode !== 200).map((a) => a.json().detail.status))).toEqual(
      new Set(['voice_add_edit_limit_reached']),
    );
    const [counted] = await db()
      .select()
      .from(voiceAddEditCounts)
      .where(eq(voiceAddEditCounts.workspaceId, account.workspaceId));
    expect(counted?.count).toBe(max);
  });
});
