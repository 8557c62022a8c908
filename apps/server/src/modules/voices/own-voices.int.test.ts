// @postgres-leg skip: clones and designed voices measured on the engines; their rows are the voices module’s, which voices.int covers on PostgreSQL.
import { ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { analyzeVoice, encodeWav, type PcmAudio } from '@parla/audio';
import { maxVoiceAddEdits, tierLimits } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeToPcm } from '../../platform/media/decode-audio';
import { transformVoice } from '../../platform/media/voice-transform';
import { EngineFailure } from '../../providers/engines/engine-pool';
import { readAll } from '../../test/audio-probe';
import {
  callAs,
  historyRowsOf,
  newSpeechAccount,
  premadeVoiceId,
  type SpeechAccount,
} from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { flacClaiming, fliteSpeech, makeMediaFile, TEN_SECONDS_OF_TEXT } from '../../test/test-signals';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { voiceAddEditCounts, voiceSamples, voices } from './voices.tables';

let t: TestApp;
let baseUrl: string;
const db = () => t.deps.database.db;

/** A man's voice moved well below every premade voice (~90 Hz): the sample the clones here are made from. */
let lowWav: Buffer;
let lowMedian: number;

const medianOf = (pcm: PcmAudio) => analyzeVoice(pcm).pitch.medianHz ?? Number.NaN;

beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2', ENGINE_TIMEOUT_MS: '20000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const man = await fliteSpeech('awb', TEN_SECONDS_OF_TEXT);
  const low = await transformVoice(man, { pitchRatio: 0.7, formantRatio: 0.92 });
  lowWav = encodeWav(low);
  lowMedian = medianOf(low);
}, 60_000);
afterAll(() => t.close());

/** A new account on a plan with instant cloning (Starter). */
async function starterAccount(): Promise<SpeechAccount> {
  const account = await newSpeechAccount(t.app, baseUrl);
  await db().update(workspaces).set({ tier: 'starter' }).where(eq(workspaces.id, account.workspaceId));
  return account;
}

const wavBlob = (bytes: Buffer = lowWav) => new Blob([bytes], { type: 'audio/wav' });

async function postForm(account: SpeechAccount, path: string, form: FormData) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'xi-api-key': account.key },
    body: form,
  });
  return {
    status: response.status,
    body: (await response.json()) as { detail: { status: string; message: string } },
  };
}

const call = (account: SpeechAccount, method: string, path: string, body?: unknown) =>
  callAs(t.app, account, method, path, body);

async function speak(account: SpeechAccount, voiceId: string, text = TEN_SECONDS_OF_TEXT) {
  const mp3 = await readAll(
    await account.sdk.textToSpeech.convert(voiceId, { text, modelId: 'eleven_multilingual_v2' }),
  );
  return decodeToPcm(mp3, { sampleRate: 16_000, maxSeconds: 60 });
}

describe('instant voice cloning with the official client', () => {
  it('ivc.create → get → search → speak in the clone → update → settings → sample audio → delete', async () => {
    const account = await starterAccount();
    const { voiceId, requiresVerification } = await account.sdk.voices.ivc.create({
      name: 'Deep narrator',
      files: [wavBlob()],
      description: 'My own voice',
      labels: { accent: 'scottish' },
    });
    expect(requiresVerification).toBe(false);

    const voice = await account.sdk.voices.get(voiceId);
    expect(voice).toMatchObject({ name: 'Deep narrator', category: 'cloned', description: 'My own voice' });
    expect(voice.labels).toMatchObject({ accent: 'scottish', language: 'en' });
    expect(voice.samples).toHaveLength(1);
    expect(voice.samples?.[0]?.durationSecs).toBeGreaterThan(8);

    const personal = await account.sdk.voices.search({ voiceType: 'personal' });
    expect(personal.voices.map((v) => v.voiceId)).toEqual([voiceId]);
    const all = await account.sdk.voices.getAll();
    expect(all.voices.some((v) => v.voiceId === voiceId)).toBe(true);

    // The clone speaks near the sample's pitch; its base voice, on its own, does not.
    const row = (await db().select().from(voices).where(eq(voices.id, voiceId)))[0];
    const clone = await speak(account, voiceId);
    const base = await speak(account, row?.baseVoiceId ?? '');
    const cloneError = Math.abs(medianOf(clone) / lowMedian - 1);
    expect(cloneError).toBeLessThan(0.15);
    expect(Math.abs(medianOf(base) / lowMedian - 1)).toBeGreaterThan(cloneError);
    const [item] = await historyRowsOf(db(), account.workspaceId);
    expect(item).toMatchObject({ voiceId, voiceName: 'Deep narrator', voiceCategory: 'cloned' });

    expect(
      await account.sdk.voices.update(voiceId, { name: 'Deeper narrator', labels: { accent: 'irish' } }),
    ).toEqual({
      status: 'ok',
    });
    expect(await account.sdk.voices.get(voiceId)).toMatchObject({
      name: 'Deeper narrator',
      labels: { accent: 'irish' },
    });

    await account.sdk.voices.settings.update(voiceId, { stability: 0.8, speed: 1.1 });
    expect(await account.sdk.voices.settings.get(voiceId)).toMatchObject({
      stability: 0.8,
      speed: 1.1,
      style: 0,
    });

    const sampleId = voice.samples?.[0]?.sampleId ?? '';
    const sample = await readAll(await account.sdk.voices.samples.audio.get(voiceId, sampleId));
    expect(Buffer.compare(sample, lowWav)).toBe(0);

    const preview = await fetch(`${baseUrl}/v1/voices/${voiceId}/preview`);
    expect(preview.status).toBe(200);
    const previewPcm = await decodeToPcm(Buffer.from(await preview.arrayBuffer()), {
      sampleRate: 16_000,
      maxSeconds: 30,
    });
    expect(Math.abs(medianOf(previewPcm) / lowMedian - 1)).toBeLessThan(0.15);

    // The OpenAI-compatible call takes an own voice's id too.
    const openai = await call(account, 'POST', '/v1/audio/speech', {
      model: 'tts-1',
      voice: voiceId,
      input: 'Hi.',
    });
    expect(openai.statusCode).toBe(200);

    // Speech to speech into the clone: a woman's recording comes out near the clone's pitch.
    const woman = await fliteSpeech('slt', 'Please bring the quarterly report to the meeting on Thursday.');
    const converted = await readAll(
      await account.sdk.speechToSpeech.convert(voiceId, {
        audio: wavBlob(encodeWav(woman)),
        modelId: 'eleven_multilingual_sts_v2',
      }),
    );
    const convertedPcm = await decodeToPcm(converted, { sampleRate: 16_000, maxSeconds: 60 });
    expect(Math.abs(medianOf(convertedPcm) / lowMedian - 1)).toBeLessThan(0.15);

    expect(await account.sdk.voices.delete(voiceId)).toEqual({ status: 'ok' });
    await expect(account.sdk.voices.get(voiceId)).rejects.toMatchObject({ statusCode: 404 });
    expect(await db().select().from(voiceSamples).where(eq(voiceSamples.voiceId, voiceId))).toEqual([]);
    // Its history items stay, with the name it had.
    expect(await historyRowsOf(db(), account.workspaceId)).toHaveLength(4);
  }, 120_000);

  it('edit with a new sample measures the profile again and counts an add-edit', async () => {
    const account = await starterAccount();
    const { voiceId } = await account.sdk.voices.ivc.create({ name: 'Two samples', files: [wavBlob()] });
    const before = (await db().select().from(voices).where(eq(voices.id, voiceId)))[0];
    const woman = encodeWav(await fliteSpeech('slt', TEN_SECONDS_OF_TEXT));
    await account.sdk.voices.update(voiceId, { name: 'Two samples', files: [wavBlob(woman)] });
    const after = (await db().select().from(voices).where(eq(voices.id, voiceId)))[0];
    expect(after?.profile?.pitch.medianHz).toBeGreaterThan((before?.profile?.pitch.medianHz ?? 0) * 1.1);
    const [edits] = await db()
      .select()
      .from(voiceAddEditCounts)
      .where(eq(voiceAddEditCounts.workspaceId, account.workspaceId));
    expect(edits?.count).toBe(2);
    const subscription = await account.sdk.user.subscription.get();
    expect(subscription).toMatchObject({
      voiceSlotsUsed: 1,
      voiceAddEditCounter: 2,
      professionalVoiceSlotsUsed: 0,
    });

    const voice = await account.sdk.voices.get(voiceId);
    expect(voice.samples).toHaveLength(2);
    const first = voice.samples?.[0]?.sampleId ?? '';
    expect((await call(account, 'DELETE', `/v1/voices/${voiceId}/samples/${first}`)).json()).toEqual({
      status: 'ok',
    });
    const last = (await account.sdk.voices.get(voiceId)).samples?.[0]?.sampleId ?? '';
    const refused = await call(account, 'DELETE', `/v1/voices/${voiceId}/samples/${last}`);
    expect(refused.statusCode).toBe(400);
  }, 60_000);
});

describe('instant cloning: plans and bad input', () => {
  it('is refused on the free plan, with nothing stored', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const error = await account.sdk.voices.ivc
      .create({ name: 'x', files: [wavBlob()] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElevenLabsError);
    expect((error as ElevenLabsError).statusCode).toBe(403);
    expect((error as ElevenLabsError).body).toMatchObject({
      detail: { status: 'voice_cloning_not_allowed' },
    });
    expect(await db().select().from(voices).where(eq(voices.workspaceId, account.workspaceId))).toEqual([]);
  });

  it('refuses files that are not speech, naming them, and a form without files', async () => {
    const account = await starterAccount();
    const text = new FormData();
    text.append('name', 'Bad');
    text.append('files', new Blob(['hello, not audio']), 'notes.txt');
    const notAudio = await postForm(account, '/v1/voices/add', text);
    expect(notAudio.status).toBe(422);
    expect(notAudio.body.detail.message).toMatch(/^notes\.txt: /);

    const silence = new FormData();
    silence.append('name', 'Quiet');
    silence.append(
      'files',
      new Blob([encodeWav({ sampleRate: 16_000, channels: 1, samples: new Int16Array(32_000) })]),
      'silence.wav',
    );
    const quiet = await postForm(account, '/v1/voices/add', silence);
    expect(quiet.status).toBe(422);
    expect(quiet.body.detail.message).toBe('silence.wav: No speech found: the sample is silent.');

    const none = new FormData();
    none.append('name', 'Nothing');
    expect((await postForm(account, '/v1/voices/add', none)).status).toBe(422);

    const noName = new FormData();
    noName.append('files', wavBlob(), 'a.wav');
    expect((await postForm(account, '/v1/voices/add', noName)).status).toBe(422);
    expect(await db().select().from(voices).where(eq(voices.workspaceId, account.workspaceId))).toEqual([]);
  });

  it('refuses a sample over 10 minutes: by its header before decoding, by a decode that stops past the limit when the header lies', async () => {
    const account = await starterAccount();
    const send = async (bytes: Buffer, name: string) => {
      const form = new FormData();
      form.append('name', 'Long');
      form.append('files', new Blob([bytes]), name);
      const started = performance.now();
      const answer = await postForm(account, '/v1/voices/add', form);
      return { ...answer, ms: performance.now() - started };
    };
    // The probe's case: a FLAC claiming 10 hours. Decoding and analysing its first 10 minutes took 2.4 s
    // and 170 MB; ffprobe's reading of the header alone refuses it now.
    const tone = await makeMediaFile('tone.flac', [
      ...['-f', 'lavfi', '-i', 'sine=frequency=150:sample_rate=8000:duration=2', '-c:a', 'flac'],
    ]);
    const tenHours = await send(flacClaiming(tone, 36_000), 'ten-hours.flac');
    expect(tenHours.status).toBe(422);
    expect(tenHours.body.detail.message).toBe(
      'ten-hours.flac: The recording is 36000 s long; at most 600 s is accepted.',
    );
    expect(tenHours.ms).toBeLessThan(1500);

    // Fifteen minutes whose header says 30 s: decoding stops just past 10 minutes, and refuses it.
    const quarterHour = await makeMediaFile('quarter-hour.flac', [
      ...['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '900', '-c:a', 'flac'],
    ]);
    const lying = await send(flacClaiming(quarterHour, 30), 'says-30-s.flac');
    expect(lying.status).toBe(422);
    expect(lying.body.detail.message).toBe(
      'says-30-s.flac: The recording is longer than 600 s; at most 600 s is accepted.',
    );
    expect(await db().select().from(voices).where(eq(voices.workspaceId, account.workspaceId))).toEqual([]);
  });

  it('refuses a clone past the add-edit limit and past the voice limit', async () => {
    const account = await starterAccount();
    const max = maxVoiceAddEdits(tierLimits.starter.voiceLimit);
    await db()
      .insert(voiceAddEditCounts)
      .values({ workspaceId: account.workspaceId, count: max })
      .onConflictDoUpdate({ target: voiceAddEditCounts.workspaceId, set: { count: max } });
    const form = () => {
      const f = new FormData();
      f.append('name', 'One too many');
      f.append('files', wavBlob(), 'a.wav');
      return f;
    };
    const edits = await postForm(account, '/v1/voices/add', form());
    expect(edits).toMatchObject({
      status: 400,
      body: { detail: { status: 'voice_add_edit_limit_reached' } },
    });

    await db().delete(voiceAddEditCounts).where(eq(voiceAddEditCounts.workspaceId, account.workspaceId));
    const row = (await db().select().from(voices).limit(1))[0];
    if (!row) throw new Error('no voice to copy');
    await db()
      .insert(voices)
      .values(
        Array.from({ length: tierLimits.starter.voiceLimit }, (_, i) => ({
          ...row,
          id: `limit${account.workspaceId.slice(0, 8)}${i}`,
          workspaceId: account.workspaceId,
          // The first row may be one of the installation's built-in voices: these are the workspace's own.
          builtIn: false,
          builtInHash: null,
        })),
      );
    const full = await postForm(account, '/v1/voices/add', form());
    expect(full).toMatchObject({ status: 400, body: { detail: { status: 'voice_limit_reached' } } });
  }, 60_000);

  it("another workspace's voice is not found anywhere", async () => {
    const owner = await starterAccount();
    const other = await starterAccount();
    const { voiceId } = await owner.sdk.voices.ivc.create({ name: 'Private', files: [wavBlob()] });
    const sampleId = (await owner.sdk.voices.get(voiceId)).samples?.[0]?.sampleId ?? '';
    for (const [method, path, body] of [
      ['GET', `/v1/voices/${voiceId}`],
      ['GET', `/v1/voices/${voiceId}/settings`],
      ['POST', `/v1/voices/${voiceId}/settings/edit`, { stability: 0.1 }],
      ['DELETE', `/v1/voices/${voiceId}`],
      ['GET', `/v1/voices/${voiceId}/samples/${sampleId}/audio`],
      ['DELETE', `/v1/voices/${voiceId}/samples/${sampleId}`],
      ['POST', `/v1/voices/${voiceId}/share`, { enabled: true }],
      ['POST', `/v1/text-to-speech/${voiceId}`, { text: 'Hello' }],
      [
        'POST',
        `/v1/text-to-voice/${voiceId}/remix`,
        { voice_description: 'the same voice, but much deeper please' },
      ],
    ] as const) {
      const response = await call(other, method, path, body);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
    }
    const edit = new FormData();
    edit.append('name', 'Stolen');
    expect((await postForm(other, `/v1/voices/${voiceId}/edit`, edit)).status).toBe(404);
    const search = await other.sdk.voices.search({ voiceType: 'non-default' });
    expect(search.voices).toEqual([]);
    expect((await owner.sdk.voices.get(voiceId)).name).toBe('Private');
    expect(await historyRowsOf(db(), other.workspaceId)).toEqual([]);
  }, 60_000);
});

describe('voice design with the official client', () => {
  it('design gives three previews near the description; create saves one that speaks like it', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const design = await account.sdk.textToVoice.design({
      voiceDescription: 'A deep, slow male voice of an old British storyteller by the fire.',
      autoGenerateText: true,
    });
    expect(design.previews).toHaveLength(3);
    expect(design.text.length).toBeGreaterThanOrEqual(100);
    const [first] = design.previews;
    if (!first) throw new Error('no preview');
    expect(first.mediaType).toBe('audio/mpeg');
    const audio = await decodeToPcm(Buffer.from(first.audioBase64, 'base64'), {
      sampleRate: 16_000,
      maxSeconds: 60,
    });
    expect(Math.abs(audio.samples.length / 16_000 - first.durationSecs)).toBeLessThan(0.2);
    const designed = medianOf(audio);

    const voice = await account.sdk.textToVoice.create({
      voiceName: 'Storyteller',
      voiceDescription: 'An old British storyteller',
      generatedVoiceId: first.generatedVoiceId,
    });
    expect(voice).toMatchObject({ name: 'Storyteller', category: 'generated' });
    expect(voice.labels).toMatchObject({ gender: 'male', age: 'old', accent: 'british' });
    const spoken = await speak(account, voice.voiceId);
    expect(Math.abs(medianOf(spoken) / designed - 1)).toBeLessThan(0.15);

    const stream = await call(
      account,
      'GET',
      `/v1/text-to-voice/${design.previews[1]?.generatedVoiceId}/stream`,
    );
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toBe('audio/mpeg');

    const remix = await account.sdk.textToVoice.remix(voice.voiceId, {
      voiceDescription: 'The same storyteller with a higher pitched voice',
    });
    const remixed = await decodeToPcm(Buffer.from(remix.previews[0]?.audioBase64 ?? '', 'base64'), {
      sampleRate: 16_000,
      maxSeconds: 60,
    });
    expect(medianOf(remixed)).toBeGreaterThan(designed * 1.05);
  }, 120_000);

  it('refuses a short description and an unknown preview id', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const short = await call(account, 'POST', '/v1/text-to-voice/design', { voice_description: 'deep' });
    expect(short.statusCode).toBe(422);
    const format = await call(account, 'POST', '/v1/text-to-voice/design?output_format=pcm_44100', {
      voice_description: 'A calm narrator with a deep voice.',
    });
    expect(format.json().detail).toMatchObject({ status: 'output_format_not_allowed' });
    const unknown = await call(account, 'POST', '/v1/text-to-voice', {
      voice_name: 'x',
      voice_description: 'y',
      generated_voice_id: 'nope',
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('the voice library with the official client', () => {
  it('share → getShared → add with new_name → speak; unsharing disables the copy; similar voices', async () => {
    const owner = await starterAccount();
    const user = await starterAccount();
    const { voiceId } = await owner.sdk.voices.ivc.create({
      name: 'Library baritone',
      files: [wavBlob()],
      labels: { gender: 'male', accent: 'american', use_case: 'narration' },
    });
    const shared = await call(owner, 'POST', `/v1/voices/${voiceId}/share`, {
      enabled: true,
      description: 'A low narrator',
    });
    expect(shared.statusCode).toBe(200);
    expect(shared.json().sharing).toMatchObject({ status: 'enabled', live_moderation_enabled: false });

    const page = await user.sdk.voices.getShared({ search: 'Library baritone', pageSize: 10 });
    const found = page.voices.find((v) => v.voiceId === voiceId);
    expect(found).toMatchObject({
      name: 'Library baritone',
      gender: 'male',
      useCase: 'narration',
      isAddedByUser: false,
    });
    const byFilter = await user.sdk.voices.getShared({
      gender: 'male',
      useCases: 'narration',
      pageSize: 100,
    });
    expect(byFilter.voices.some((v) => v.voiceId === voiceId)).toBe(true);
    const wrongGender = await user.sdk.voices.getShared({ gender: 'female', search: 'Library baritone' });
    expect(wrongGender.voices).toEqual([]);

    const added = await user.sdk.voices.share(found?.publicOwnerId ?? '', voiceId, {
      newName: 'My baritone',
    });
    const copy = await user.sdk.voices.get(added.voiceId);
    expect(copy).toMatchObject({ name: 'My baritone', isOwner: false, sharing: { status: 'copied' } });
    expect((await user.sdk.voices.search({ voiceType: 'community' })).voices.map((v) => v.voiceId)).toEqual([
      added.voiceId,
    ]);
    const again = await call(user, 'POST', `/v1/voices/add/${found?.publicOwnerId}/${voiceId}`, {
      new_name: 'Twice',
    });
    expect(again.statusCode).toBe(409);
    const spoken = await speak(user, added.voiceId, 'A short line in the copied voice.');
    expect(spoken.samples.length).toBeGreaterThan(0);
    const listed = await user.sdk.voices.getShared({ search: 'Library baritone' });
    expect(listed.voices[0]?.isAddedByUser).toBe(true);
    expect(listed.voices[0]?.clonedByCount).toBe(1);

    const similar = await user.sdk.voices.findSimilarVoices({ audioFile: wavBlob(), topK: 50 });
    expect(similar.voices[0]?.voiceId).toBe(voiceId);

    await call(owner, 'POST', `/v1/voices/${voiceId}/share`, { enabled: false });
    expect((await user.sdk.voices.get(added.voiceId)).sharing).toMatchObject({ status: 'copied_disabled' });
    const refused = await call(user, 'POST', `/v1/text-to-speech/${added.voiceId}`, { text: 'Hello' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toMatchObject({ status: 'voice_unusable' });
    expect((await user.sdk.voices.getShared({ search: 'Library baritone' })).voices).toEqual([]);
  }, 120_000);

  it('collections: create, list, filter /v2/voices, rename, delete', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const sarah = premadeVoiceId('Sarah');
    const created = await call(account, 'POST', '/v1/voices/collections', {
      name: 'Favourites',
      voice_ids: [sarah],
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().collection_id as string;
    const filtered = await account.sdk.voices.search({ collectionId: id });
    expect(filtered.voices.map((v) => v.voiceId)).toEqual([sarah]);
    const renamed = await call(account, 'PATCH', `/v1/voices/collections/${id}`, { name: 'Best' });
    expect(renamed.json()).toMatchObject({ name: 'Best', voice_ids: [sarah] });
    expect((await call(account, 'GET', '/v1/voices/collections')).json().collections).toHaveLength(1);
    const other = await newSpeechAccount(t.app, baseUrl);
    expect((await call(other, 'GET', `/v1/voices/collections/${id}`)).statusCode).toBe(404);
    expect((await call(other, 'DELETE', `/v1/voices/collections/${id}`)).statusCode).toBe(404);
    expect((await call(account, 'DELETE', `/v1/voices/collections/${id}`)).json()).toEqual({
      collection_id: id,
      status: 'ok',
    });
    expect((await call(account, 'GET', `/v1/voices/collections/${id}`)).statusCode).toBe(404);
  });
});

describe('library, design and collections: the edges', () => {
  it("a probation account's unverified clone does not speak once shared and added elsewhere", async () => {
    const owner = await starterAccount();
    const [ws] = await db().select().from(workspaces).where(eq(workspaces.id, owner.workspaceId));
    await db()
      .update(users)
      .set({ isInProbation: true })
      .where(eq(users.id, ws?.ownerId ?? ''));
    const { voiceId, requiresVerification } = await owner.sdk.voices.ivc.create({
      name: 'Unverified celebrity',
      files: [wavBlob()],
    });
    expect(requiresVerification).toBe(true);
    const own = await call(owner, 'POST', `/v1/text-to-speech/${voiceId}`, { text: 'Hello' });
    expect(own.statusCode).toBe(400);
    const shared = await call(owner, 'POST', `/v1/voices/${voiceId}/share`, { enabled: true });
    const publicOwnerId = shared.json().sharing?.public_owner_id as string;
    const other = await starterAccount();
    const added = await call(other, 'POST', `/v1/voices/add/${publicOwnerId}/${voiceId}`, {
      new_name: 'Copy',
    });
    const copyId = added.json().voice_id as string | undefined;
    const spoken = copyId
      ? await call(other, 'POST', `/v1/text-to-speech/${copyId}`, { text: 'Hello' })
      : undefined;
    expect(spoken?.statusCode ?? 400).toBe(400);
  }, 60_000);

  it('a copy whose owner stopped sharing cannot be remixed into a voice of its own', async () => {
    const owner = await starterAccount();
    const user = await starterAccount();
    const { voiceId } = await owner.sdk.voices.ivc.create({ name: 'Withdrawn', files: [wavBlob()] });
    const shared = await call(owner, 'POST', `/v1/voices/${voiceId}/share`, { enabled: true });
    const publicOwnerId = shared.json().sharing?.public_owner_id as string;
    const added = await call(user, 'POST', `/v1/voices/add/${publicOwnerId}/${voiceId}`, {
      new_name: 'Mine',
    });
    const copyId = added.json().voice_id as string;
    await call(owner, 'POST', `/v1/voices/${voiceId}/share`, { enabled: false });
    const remix = await call(user, 'POST', `/v1/text-to-voice/${copyId}/remix`, {
      voice_description: 'exactly the same voice as before, nothing changed',
      auto_generate_text: true,
    });
    expect(remix.statusCode).toBe(400);
  }, 60_000);

  it("design honours the official client's output_format (a query parameter)", async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    // German is designed on a classic base (Kokoro speaks no German): the format is the point here, and
    // encoding does not depend on the engine, so no Kokoro blends are measured and spoken for it.
    const design = await account.sdk.textToVoice.design({
      voiceDescription: 'A calm young German woman with a warm voice, reading a story.',
      autoGenerateText: true,
      outputFormat: 'pcm_16000',
    });
    const first = design.previews[0];
    expect(first?.mediaType).not.toBe('audio/mpeg');
    const stream = await call(account, 'GET', `/v1/text-to-voice/${first?.generatedVoiceId}/stream`);
    expect(stream.headers['content-type']).toBe(first?.mediaType);
  }, 60_000);

  it('a design whose engines fail answers the 503 of text to speech, not a 500', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const synthesize = vi
      .spyOn(t.deps.providers.tts, 'synthesize')
      .mockRejectedValue(new EngineFailure('timeout', 'the engine took too long'));
    try {
      const design = await call(account, 'POST', '/v1/text-to-voice/design', {
        voice_description: 'A calm young woman with a warm voice, reading a story.',
        auto_generate_text: true,
      });
      expect(design.statusCode).toBe(503);
      expect(design.json().detail.status).toBe('service_unavailable');
    } finally {
      synthesize.mockRestore();
    }
  }, 60_000);

  it('collections through the official client (title and icon)', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const created = await account.sdk.voices.collections.create({ title: 'Favourites', icon: 'star' });
    expect(created.title).toBe('Favourites');
    const listed = await account.sdk.voices.collections.list();
    expect(listed.collections).toHaveLength(1);
    expect(listed.collections[0]).toMatchObject({ icon: 'star', permissionOnResource: 'admin' });
    const sarah = premadeVoiceId('Sarah');
    const id = created.collectionId;
    expect(await account.sdk.voices.collections.addVoice(id, sarah)).toEqual({
      collectionId: id,
      voiceId: sarah,
    });
    expect((await account.sdk.voices.search({ collectionId: id })).voices.map((v) => v.voiceId)).toEqual([
      sarah,
    ]);
    const unknown = await call(account, 'POST', `/v1/voices/collections/${id}/voice/nobody`);
    expect(unknown.statusCode).toBe(404);
    await account.sdk.voices.collections.removeVoice(id, sarah);
    expect((await account.sdk.voices.collections.get(id)).title).toBe('Favourites');
    expect((await call(account, 'GET', `/v1/voices/collections/${id}`)).json().voice_ids).toEqual([]);
    expect(await account.sdk.voices.collections.delete(id)).toMatchObject({ collectionId: id });
  });
});
