// @postgres-leg skip: the premade voices’ audio on every engine; nothing here depends on the database driver.
import { analyzeVoice, formantScale } from '@parla/audio';
import { PREMADE_VOICES } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeStrictly, readAll } from '../../test/audio-probe';
import { callAs, newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { workspaces } from '../workspaces/workspaces.tables';
import { BUILT_IN_OWNER_ID, BUILT_IN_VOICES, LIBRARY_BASE_VOICES } from './built-in-voices.catalog';
import { BASE_VOICE_PROFILES } from './built-in-voices.profiles';
import { seedBuiltInVoices } from './built-in-voices.service';
import { REFERENCE_TEXT } from './speaking-voice';
import { voices } from './voices.tables';

let t: TestApp;
let baseUrl: string;
const db = () => t.deps.database.db;

beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '1', ENGINE_TIMEOUT_MS: '30000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterAll(() => t.close());

const call = (account: SpeechAccount, method: string, path: string, body?: unknown) =>
  callAs(t.app, account, method, path, body);

const builtInRows = () => db().select().from(voices).where(eq(voices.builtIn, true)).orderBy(voices.id);

describe('a fresh install’s voice library', () => {
  it('lists the built-in voices, featured, with languages, labels, descriptions and previews', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const page = await account.sdk.voices.getShared({ featured: true, pageSize: 100 });
    const builtIn = page.voices.filter((v) => v.publicOwnerId === BUILT_IN_OWNER_ID);
    expect(builtIn.length).toBeGreaterThanOrEqual(40);
    expect(builtIn.length).toBe(BUILT_IN_VOICES.length);
    for (const voice of builtIn) {
      expect(voice.featured, voice.name).toBe(true);
      expect(voice.category).toBe('generated');
      expect(voice.language).toMatch(/^[a-z]{2}$/);
      expect(voice.description?.length ?? 0).toBeGreaterThan(30);
      expect(voice.previewUrl).toMatch(new RegExp(`^https?://[^/]+/v1/voices/${voice.voiceId}/preview$`));
      for (const label of [voice.gender, voice.age, voice.accent, voice.useCase, voice.descriptive])
        expect(label, voice.name).not.toBe('');
      expect(voice.freeUsersAllowed).toBe(true);
      expect(voice.isAddedByUser).toBe(false);
    }
    expect(new Set(builtIn.map((v) => v.language)).size).toBeGreaterThanOrEqual(9);
    // The library's filters reach them: language, accent, use case.
    const german = await account.sdk.voices.getShared({ language: 'de', featured: true, pageSize: 100 });
    expect(german.voices.length).toBeGreaterThanOrEqual(2);
    expect(german.voices.every((v) => v.language === 'de')).toBe(true);
    const scottish = await account.sdk.voices.getShared({ accent: 'scottish', pageSize: 100 });
    expect(scottish.voices.map((v) => v.name)).toEqual(expect.arrayContaining(['Fergus', 'Isla']));
    const news = await account.sdk.voices.getShared({ useCases: 'news', featured: true, pageSize: 100 });
    expect(news.voices.length).toBeGreaterThanOrEqual(5);
  });

  it('serves each language’s preview as real audio, saying its sentence in the voice', async () => {
    const oneOfEach = new Map(BUILT_IN_VOICES.map((v) => [v.language, v]));
    let last = new Uint8Array();
    for (const voice of oneOfEach.values()) {
      const response = await fetch(`${baseUrl}/v1/voices/${voice.voice_id}/preview`);
      expect(response.status, voice.name).toBe(200);
      expect(response.headers.get('content-type')).toContain('audio/mpeg');
      const bytes = new Uint8Array(await response.arrayBuffer());
      const seconds = decodeStrictly(bytes);
      expect(seconds, voice.name).toBeGreaterThan(1.5);
      last = bytes;
    }
    // Similar voices reach the built-in voices too (they belong to no workspace).
    const account = await newSpeechAccount(t.app, baseUrl);
    const similar = await account.sdk.voices.findSimilarVoices({
      audioFile: new Blob([last], { type: 'audio/mpeg' }),
      topK: 5,
    });
    expect(similar.voices.length).toBeGreaterThan(0);
    expect(similar.voices.every((v) => v.featured)).toBe(true);
  }, 240_000);
});

describe('seeding the built-in voices', () => {
  it('changes nothing when run again', async () => {
    const before = await builtInRows();
    const again = await seedBuiltInVoices({ db: db(), storage: t.deps.storage });
    expect(again).toMatchObject({ added: [], updated: [], retired: [] });
    expect(await builtInRows()).toEqual(before);
  });

  it('updates a voice whose definition changed, retires one that is gone, and restores both', async () => {
    const [first, second] = BUILT_IN_VOICES;
    if (!first || !second) throw new Error('no built-in voices');
    const changed = BUILT_IN_VOICES.map((v) =>
      v === first ? { ...v, description: `${v.description} Now with a new line.` } : v,
    );
    try {
      const updated = await seedBuiltInVoices({ db: db() }, changed);
      expect(updated).toMatchObject({ added: [], updated: [first.voice_id], retired: [] });
      const [row] = await db().select().from(voices).where(eq(voices.id, first.voice_id));
      expect(row?.description).toMatch(/Now with a new line\.$/);
      const without = await seedBuiltInVoices(
        { db: db() },
        BUILT_IN_VOICES.filter((v) => v !== second),
      );
      // The first is back to its definition; the second has left the library.
      expect(without).toMatchObject({ added: [], updated: [first.voice_id], retired: [second.voice_id] });
      const [gone] = await db().select().from(voices).where(eq(voices.id, second.voice_id));
      expect(gone?.sharingStatus).toBe('disabled');
    } finally {
      const restored = await seedBuiltInVoices({ db: db() });
      expect(restored).toMatchObject({ added: [], updated: [second.voice_id], retired: [] });
    }
  });
});

describe('adding a built-in voice', () => {
  it('copies it into the workspace, completes the checklist step, and the copy speaks', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    await call(account, 'POST', '/v1/user/onboarding-checklist/initiate');
    const voice = BUILT_IN_VOICES.find((v) => v.name === 'Klara');
    if (!voice) throw new Error('Klara is missing');
    const added = await account.sdk.voices.share(BUILT_IN_OWNER_ID, voice.voice_id, { newName: 'My Klara' });
    const copy = await account.sdk.voices.get(added.voiceId);
    expect(copy).toMatchObject({
      name: 'My Klara',
      category: 'generated',
      isOwner: false,
      sharing: { status: 'copied', originalVoiceId: voice.voice_id, publicOwnerId: BUILT_IN_OWNER_ID },
      labels: { language: 'de', gender: 'female' },
    });
    expect(copy.settings?.speed).toBe(voice.design.pace);

    let step: { is_completed: boolean } | undefined;
    for (let i = 0; i < 50 && !step?.is_completed; i++) {
      const checklist = (await call(account, 'GET', '/v1/user/onboarding-checklist')).json();
      step = checklist.checklist.items.find(
        (item: { onboarding_checklist_item_id: string }) =>
          item.onboarding_checklist_item_id === 'add_voice_to_voice_lab',
      );
      if (!step?.is_completed) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(step?.is_completed).toBe(true);

    const listed = await account.sdk.voices.getShared({ search: 'Klara', featured: true });
    expect(listed.voices[0]).toMatchObject({ voiceId: voice.voice_id, isAddedByUser: true });

    const mp3 = await readAll(
      await account.sdk.textToSpeech.convert(added.voiceId, {
        text: 'Guten Morgen, heute ist ein schöner Tag.',
        modelId: 'eleven_multilingual_v2',
      }),
    );
    expect(decodeStrictly(mp3)).toBeGreaterThan(1);
  }, 120_000);
});

describe('a user and a built-in voice', () => {
  it('cannot edit, share or delete it; deleting a copy or a workspace leaves it as it is', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const voice = BUILT_IN_VOICES[0];
    if (!voice) throw new Error('no built-in voices');
    const [before] = await db().select().from(voices).where(eq(voices.id, voice.voice_id));
    const attempts = [
      call(account, 'DELETE', `/v1/voices/${voice.voice_id}`),
      call(account, 'POST', `/v1/voices/${voice.voice_id}/share`, { enabled: false }),
      call(account, 'POST', `/v1/voices/${voice.voice_id}/settings/edit`, { stability: 0.1 }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(403);
      expect(response.json().detail).toMatchObject({ status: 'forbidden' });
      expect(response.json().detail.message).toMatch(/built-in voice/);
    }
    const edit = await fetch(`${baseUrl}/v1/voices/${voice.voice_id}/edit`, {
      method: 'POST',
      headers: { 'xi-api-key': account.key },
      body: (() => {
        const form = new FormData();
        form.set('name', 'Mine now');
        return form;
      })(),
    });
    expect(edit.status).toBe(403);

    const added = await account.sdk.voices.share(BUILT_IN_OWNER_ID, voice.voice_id, { newName: 'Copy' });
    expect((await call(account, 'DELETE', `/v1/voices/${added.voiceId}`)).statusCode).toBe(200);
    await db().delete(workspaces).where(eq(workspaces.id, account.workspaceId));
    const [after] = await db().select().from(voices).where(eq(voices.id, voice.voice_id));
    expect(after).toMatchObject({ ...before, clonedByCount: (before?.clonedByCount ?? 0) + 1 });
    expect(after?.sharingStatus).toBe('enabled');
  }, 60_000);
});

describe('the base voices of the built-in voices', () => {
  it('speak their language: each rendition differs from English reading the same sentence', async () => {
    const engines = t.deps.providers.tts;
    for (const base of LIBRARY_BASE_VOICES) {
      const sentence = BUILT_IN_VOICES.find((v) => v.design.base === base.voice_id)?.preview_text ?? '';
      const text = sentence.replaceAll('{name}', 'Alex');
      const variant = base.primary.voice.split('+')[1];
      // English first: eSpeak keeps the voice it had when asked for one it lacks, so a missing language
      // would read this sentence exactly as English just did.
      const english = await engines.synthesize({ engine: 'espeak', voice: `en-us+${variant}`, text });
      const own = await engines.synthesize({ ...base.primary, text });
      expect(own.samples.length, base.voice_id).toBeGreaterThan(own.sampleRate);
      expect(Buffer.from(own.samples.buffer).equals(Buffer.from(english.samples.buffer)), base.voice_id).toBe(
        false,
      );
    }
  }, 240_000);

  it('sound as their committed profiles say (re-measure with the engines when one changes)', async () => {
    const engines = t.deps.providers.tts;
    const used = new Set(BUILT_IN_VOICES.map((v) => v.design.base));
    const bases = [...PREMADE_VOICES, ...LIBRARY_BASE_VOICES].filter((b) => used.has(b.voice_id));
    expect(new Set(Object.keys(BASE_VOICE_PROFILES))).toEqual(used);
    for (const base of bases) {
      const committed = BASE_VOICE_PROFILES[base.voice_id];
      if (!committed) throw new Error(`no profile for ${base.voice_id}`);
      const speech = await engines.synthesize({ ...base.primary, text: REFERENCE_TEXT });
      const measured = analyzeVoice({ sampleRate: speech.sampleRate, samples: speech.samples });
      const pitch = (measured.pitch.medianHz ?? 0) / (committed.pitch.medianHz ?? 1);
      expect(pitch, `${base.voice_id}: ${JSON.stringify(measured)}`).toBeGreaterThan(0.97);
      expect(pitch, `${base.voice_id}: ${JSON.stringify(measured)}`).toBeLessThan(1.03);
      expect(Math.abs(formantScale(committed, measured) - 1), base.voice_id).toBeLessThan(0.03);
    }
  }, 300_000);
});
