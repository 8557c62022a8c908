import { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';
import { eq, sql } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeAudio, readAll } from '../../test/audio-probe';
import { createTestUser, signUpWithApiKey } from '../../test/factories';
import { premadeVoiceId } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { workspaceMembers } from '../workspaces/workspaces.tables';
import { shareLinkFor, updatePublicUserName } from './history.service';
import { historyItems } from './history.tables';

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const voice = premadeVoiceId;

/** An account with `texts` spoken in order (eSpeak, the quickest engine), oldest first. */
async function accountWith(texts: { text: string; voice: string }[]) {
  const account = await signUpWithApiKey(t.app);
  const ids: string[] = [];
  for (const { text, voice: name } of texts) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/text-to-speech/${voice(name)}`,
      headers: { 'xi-api-key': account.apiKey },
      payload: { text, model_id: 'parla_multilingual_v1' },
    });
    expect(res.statusCode).toBe(200);
    ids.push(res.headers['history-item-id'] as string);
  }
  const sdk = new ElevenLabsClient({ apiKey: account.apiKey, baseUrl, maxRetries: 0 });
  return { ...account, ids, sdk };
}

describe('history over the public API', () => {
  it('lists newest first a page at a time, with the official client', async () => {
    const { sdk, ids } = await accountWith([
      { text: 'First of four.', voice: 'Sarah' },
      { text: 'Second of four.', voice: 'Kevin' },
      { text: 'Third of four.', voice: 'Sarah' },
      { text: 'Fourth of four.', voice: 'Kevin' },
    ]);
    const first = await sdk.history.list({ pageSize: 3 });
    expect(first.history.map((h) => h.historyItemId)).toEqual([ids[3], ids[2], ids[1]]);
    expect(first.hasMore).toBe(true);
    expect(first.lastHistoryItemId).toBe(ids[1]);
    expect(first.history[0]).toMatchObject({
      text: 'Fourth of four.',
      voiceName: 'Kevin',
      modelId: 'parla_multilingual_v1',
      source: 'TTS',
      contentType: 'audio/mpeg',
    });
    const second = await sdk.history.list({ pageSize: 3, startAfterHistoryItemId: first.lastHistoryItemId });
    expect(second.history.map((h) => h.historyItemId)).toEqual([ids[0]]);
    expect(second.hasMore).toBe(false);

    const oldestFirst = await sdk.history.list({ sortDirection: 'asc' });
    expect(oldestFirst.history.map((h) => h.historyItemId)).toEqual(ids);
    const sarah = await sdk.history.list({ voiceId: voice('Sarah') });
    expect(sarah.history.map((h) => h.text)).toEqual(['Third of four.', 'First of four.']);
    const search = await sdk.history.list({ search: 'SECOND' });
    expect(search.history.map((h) => h.historyItemId)).toEqual([ids[1]]);
    // Full-text: every word typed starts a word of the text, in any order and case.
    expect((await sdk.history.list({ search: 'fou thi' })).history.map((h) => h.historyItemId)).toEqual([
      ids[2],
    ]);
    expect((await sdk.history.list({ search: 'of' })).history).toHaveLength(4);
    expect((await sdk.history.list({ search: 'fifth' })).history).toEqual([]);
    // LIKE wildcards in the search are plain characters.
    expect((await sdk.history.list({ search: '%' })).history).toEqual([]);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await sdk.history.list({ dateAfterUnix: future })).history).toEqual([]);
    expect((await sdk.history.list({ dateBeforeUnix: future })).history).toHaveLength(4);
  });

  it('gets one item and its audio, with the character times', async () => {
    const { sdk, ids } = await accountWith([{ text: 'Hello there.', voice: 'Sarah' }]);
    const id = ids[0] ?? '';
    // 12 characters at parla_multilingual_v1's 0.5 credits each.
    const item = await sdk.history.get(id);
    expect(item).toMatchObject({ historyItemId: id, text: 'Hello there.', characterCountChangeTo: 6 });
    expect(item.alignments?.alignment.characters.join('')).toBe('Hello there.');
    const audio = await readAll(await sdk.history.getAudio(id));
    expect(probeAudio(audio)).toMatchObject({ codec: 'mp3', sampleRate: 44100 });
  });

  it('never shows another workspace’s items, and says what is wrong with a bad request', async () => {
    const owner = await accountWith([{ text: 'Private words.', voice: 'Sarah' }]);
    const other = await signUpWithApiKey(t.app);
    const id = owner.ids[0] ?? '';
    const as = (key: string, url: string) =>
      t.app.inject({ method: 'GET', url, headers: { 'xi-api-key': key } });
    for (const url of [
      `/v1/history/${id}`,
      `/v1/history/${id}/audio`,
      `/v1/history?start_after_history_item_id=${id}`,
    ]) {
      const res = await as(other.apiKey, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().detail.status).toBe('resource_not_found');
    }
    expect((await as(other.apiKey, '/v1/history')).json().history).toEqual([]);
    const bad = await as(owner.apiKey, '/v1/history?page_size=0');
    expect(bad.statusCode).toBe(422);
    expect((await as(owner.apiKey, '/v1/history?source=XYZ')).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/v1/history' })).statusCode).toBe(401);
  });
});

describe('feedback on an item (history/voices §4, §5, §8)', () => {
  const send = (apiKey: string, id: string, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/history/${id}/feedback`,
      headers: { 'xi-api-key': apiKey },
      payload,
    });

  it('stores thumbs, text and the five boxes; the item carries it; given again it replaces it', async () => {
    const { apiKey, ids, sdk } = await accountWith([{ text: 'Rate me, please.', voice: 'Sarah' }]);
    const id = ids[0] as string;
    const negative = await send(apiKey, id, {
      thumbs_up: false,
      feedback: 'The voice swallows the last word of every sentence.',
      glitches: true,
      audio_quality: true,
    });
    expect(negative.statusCode).toBe(200);
    const stored = {
      thumbs_up: false,
      feedback: 'The voice swallows the last word of every sentence.',
      emotions: false,
      inaccurate_clone: false,
      glitches: true,
      audio_quality: true,
      other: false,
      review_status: 'not_reviewed',
    };
    expect(negative.json()).toEqual(stored);
    const item = await t.app.inject({
      method: 'GET',
      url: `/v1/history/${id}`,
      headers: { 'xi-api-key': apiKey },
    });
    expect(item.json().feedback).toEqual(stored);
    // The official client reads the item as before.
    expect((await sdk.history.get(id)).historyItemId).toBe(id);

    const positive = await send(apiKey, id, { thumbs_up: true });
    expect(positive.json()).toMatchObject({ thumbs_up: true, feedback: '', glitches: false });
  });

  it('refuses a text under 20 characters, and positive text over 200; empty text is fine', async () => {
    const { apiKey, ids } = await accountWith([{ text: 'Short feedback.', voice: 'Kevin' }]);
    const id = ids[0] as string;
    const short = await send(apiKey, id, { thumbs_up: false, feedback: 'Too quiet.' });
    expect(short.statusCode).toBe(422);
    expect(short.json().detail.errors[0]).toMatchObject({
      loc: ['body', 'feedback'],
      msg: 'Feedback needs at least 20 characters.',
    });
    const long = await send(apiKey, id, { thumbs_up: true, feedback: 'Lovely, clear and warm. '.repeat(9) });
    expect(long.statusCode).toBe(422);
    expect(long.json().detail.errors[0].msg).toBe('Positive feedback holds at most 200 characters.');
    expect((await send(apiKey, id, { thumbs_up: false, feedback: 'x'.repeat(2001) })).statusCode).toBe(422);
    expect((await send(apiKey, id, { thumbs_up: false, feedback: '   ' })).statusCode).toBe(200);
  });

  it('refuses feedback on a reviewed item with the spec’s message, and another workspace’s item as unknown', async () => {
    const { apiKey, ids } = await accountWith([{ text: 'Reviewed already.', voice: 'Sarah' }]);
    const id = ids[0] as string;
    expect((await send(apiKey, id, { thumbs_up: true })).statusCode).toBe(200);
    await t.deps.database.db.execute(
      sql`update history_items set feedback = jsonb_set(feedback, '{review_status}', '"reviewed"') where id = ${id}`,
    );
    const refused = await send(apiKey, id, { thumbs_up: false });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toEqual({
      status: 'feedback_already_reviewed',
      message: 'This feedback cannot be changed as it was already reviewed.',
    });
    const stranger = await signUpWithApiKey(t.app);
    const foreign = await send(stranger.apiKey, id, { thumbs_up: false });
    expect(foreign.statusCode).toBe(404);
    expect((await send(apiKey, 'NoSuchItem', { thumbs_up: true })).statusCode).toBe(404);
  });

  it('is refused when the server turns feedback off (FEEDBACK_ENABLED=false)', async () => {
    const off = await createTestApp({ env: { FEEDBACK_ENABLED: 'false' } });
    try {
      const account = await signUpWithApiKey(off.app);
      const res = await off.app.inject({
        method: 'POST',
        url: '/v1/history/AnyItem/feedback',
        headers: { 'xi-api-key': account.apiKey },
        payload: { thumbs_up: true },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail.status).toBe('feature_disabled');
    } finally {
      await off.close();
    }
  });
});

describe('downloads, deletion and share links (history/voices §5, §7)', () => {
  const call = (
    apiKey: string | undefined,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      headers: apiKey ? { 'xi-api-key': apiKey } : {},
      ...(payload ? { payload } : {}),
    });

  it('downloads one item as its audio file and several as a zip, with the official client', async () => {
    const { sdk, ids } = await accountWith([
      { text: 'Download me first.', voice: 'Sarah' },
      { text: 'Download me second.', voice: 'Sarah' },
    ]);
    const one = await readAll(await sdk.history.download({ historyItemIds: [ids[0] as string] }));
    expect(probeAudio(one)).toMatchObject({ codec: 'mp3' });
    const zip = await readAll(await sdk.history.download({ historyItemIds: ids }));
    const files = unzipSync(new Uint8Array(zip));
    const names = Object.keys(files);
    expect(names).toHaveLength(2);
    for (const name of names) {
      expect(name).toMatch(/^Parla_\d{4}-\d\d-\d\dT\d\d_\d\d_\d\d_Sarah_pre_.*\.mp3$/);
      expect(probeAudio(Buffer.from(files[name] as Uint8Array))).toMatchObject({ codec: 'mp3' });
    }
    const wav = await readAll(await sdk.history.download({ historyItemIds: ids, outputFormat: 'wav' }));
    const wavs = unzipSync(new Uint8Array(wav));
    for (const [name, data] of Object.entries(wavs)) {
      expect(name.endsWith('.wav')).toBe(true);
      expect(Buffer.from(data).subarray(0, 4).toString('latin1')).toBe('RIFF');
    }
  });

  it('names a single download in Content-Disposition, and refuses bad requests without sending anything', async () => {
    const { apiKey, ids } = await accountWith([{ text: 'Named file.', voice: 'Kevin' }]);
    const res = await call(apiKey, 'POST', '/v1/history/download', {
      history_item_ids: [ids[0]],
      output_format: 'wav',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="Parla_.*_Kevin_pre_.*\.wav"/);
    const stranger = await signUpWithApiKey(t.app);
    for (const payload of [
      { history_item_ids: [] },
      { history_item_ids: Array.from({ length: 101 }, (_, i) => `id${i}`) },
      { history_item_ids: [ids[0]], output_format: 'flac' },
      { history_item_ids: 'not-a-list' },
    ]) {
      expect((await call(apiKey, 'POST', '/v1/history/download', payload)).statusCode).toBe(422);
    }
    const foreign = await call(stranger.apiKey, 'POST', '/v1/history/download', { history_item_ids: ids });
    expect(foreign.statusCode).toBe(404);
    const mixed = await call(apiKey, 'POST', '/v1/history/download', {
      history_item_ids: [ids[0], 'NoSuch'],
    });
    expect(mixed.statusCode).toBe(404);
  });

  it('deletes an item and its audio; another workspace cannot', async () => {
    const { sdk, apiKey, ids } = await accountWith([
      { text: 'Keep me.', voice: 'Sarah' },
      { text: 'Delete me.', voice: 'Sarah' },
    ]);
    const id = ids[1] as string;
    const [row] = await t.deps.database.db
      .select({ audioKey: historyItems.audioKey })
      .from(historyItems)
      .where(eq(historyItems.id, id));
    const stranger = await signUpWithApiKey(t.app);
    expect((await call(stranger.apiKey, 'DELETE', `/v1/history/${id}`)).statusCode).toBe(404);
    expect((await call(apiKey, 'GET', `/v1/history/${id}`)).statusCode).toBe(200);

    expect(await sdk.history.delete(id)).toEqual({ status: 'ok' });
    expect((await call(apiKey, 'GET', `/v1/history/${id}`)).statusCode).toBe(404);
    expect(await t.deps.storage.stat(row?.audioKey ?? '')).toBeUndefined();
    expect((await sdk.history.list()).history.map((h) => h.historyItemId)).toEqual([ids[0]]);
    expect((await call(apiKey, 'DELETE', `/v1/history/${id}`)).statusCode).toBe(404);
  });

  it('gives an item one public link that plays without a sign-in, until the item is deleted', async () => {
    const { apiKey, ids } = await accountWith([{ text: 'Share this sentence.', voice: 'Sarah' }]);
    const id = ids[0] as string;
    const first = await call(apiKey, 'GET', `/v1/history/${id}/share-link`);
    expect(first.statusCode).toBe(200);
    const { share_link, public_user_name } = first.json();
    expect(share_link).toMatch(/^http:\/\/localhost:\d+\/share\/[A-Za-z0-9]{24}$/);
    expect(public_user_name).toBeNull();
    expect((await call(apiKey, 'GET', `/v1/history/${id}/share-link`)).json().share_link).toBe(share_link);
    expect((await call(apiKey, 'GET', `/v1/history/${id}`)).json().share_link_id).toBe(
      share_link.split('/').pop(),
    );

    const named = await call(apiKey, 'POST', '/v1/user/update-public-user-name', {
      public_user_name: ' Ada ',
    });
    expect(named.json()).toEqual({ status: 'ok', public_user_name: 'Ada' });
    const shareId = share_link.split('/').pop();
    const page = await call(undefined, 'GET', `/v1/shared-history/${shareId}`);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({
      text: 'Share this sentence.',
      voice_name: 'Sarah',
      public_user_name: 'Ada',
      content_type: 'audio/mpeg',
    });
    const audio = await call(undefined, 'GET', `/v1/shared-history/${shareId}/audio`);
    expect(audio.statusCode).toBe(200);
    expect(probeAudio(audio.rawPayload)).toMatchObject({ codec: 'mp3' });

    const stranger = await signUpWithApiKey(t.app);
    expect((await call(stranger.apiKey, 'GET', `/v1/history/${id}/share-link`)).statusCode).toBe(404);
    expect((await call(undefined, 'GET', `/v1/history/${id}/share-link`)).statusCode).toBe(401);
    expect((await call(undefined, 'GET', '/v1/shared-history/NoSuchLink')).statusCode).toBe(404);

    expect((await call(apiKey, 'DELETE', `/v1/history/${id}`)).statusCode).toBe(200);
    expect((await call(undefined, 'GET', `/v1/shared-history/${shareId}`)).statusCode).toBe(404);
    expect((await call(undefined, 'GET', `/v1/shared-history/${shareId}/audio`)).statusCode).toBe(404);
  });

  it('refuses a public name that is too long or not text', async () => {
    const { apiKey } = await signUpWithApiKey(t.app);
    const url = '/v1/user/update-public-user-name';
    expect((await call(apiKey, 'POST', url, { public_user_name: 'x'.repeat(61) })).statusCode).toBe(422);
    expect((await call(apiKey, 'POST', url, { public_user_name: 42 })).statusCode).toBe(422);
    expect((await call(apiKey, 'POST', url, { public_user_name: '' })).json().public_user_name).toBeNull();
  });

  it('serves byte ranges of the audio, signed in and on a share page (players seek with them)', async () => {
    const { apiKey, ids } = await accountWith([{ text: 'Seek through me.', voice: 'Kevin' }]);
    const id = ids[0] as string;
    const whole = await call(apiKey, 'GET', `/v1/history/${id}/audio`);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const size = whole.rawPayload.length;
    const ranged = await t.app.inject({
      method: 'GET',
      url: `/v1/history/${id}/audio`,
      headers: { 'xi-api-key': apiKey, range: 'bytes=100-199' },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 100-199/${size}`);
    expect(ranged.rawPayload.equals(whole.rawPayload.subarray(100, 200))).toBe(true);
    const shareId = (await call(apiKey, 'GET', `/v1/history/${id}/share-link`))
      .json()
      .share_link.split('/')
      .pop();
    const tail = await t.app.inject({
      method: 'GET',
      url: `/v1/shared-history/${shareId}/audio`,
      headers: { range: 'bytes=-50' },
    });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(whole.rawPayload.subarray(size - 50))).toBe(true);
    const past = await t.app.inject({
      method: 'GET',
      url: `/v1/shared-history/${shareId}/audio`,
      headers: { range: `bytes=${size}-` },
    });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
  });

  it('refuses a download too big to build, before reading anything', async () => {
    const { apiKey, ids } = await accountWith([{ text: 'Pretend I am long.', voice: 'Sarah' }]);
    const id = ids[0] as string;
    // Three hours at 44.1 kHz is about 950 MB as WAV; the stored mp3 stays small.
    await t.deps.database.db
      .update(historyItems)
      .set({ durationMs: 3 * 60 * 60 * 1000 })
      .where(eq(historyItems.id, id));
    const wav = await call(apiKey, 'POST', '/v1/history/download', {
      history_item_ids: [id],
      output_format: 'wav',
    });
    expect(wav.statusCode).toBe(413);
    expect(wav.json().detail.message).toMatch(
      /^These items come to about \d+ MB as WAV; one download holds at most 200 MB/,
    );
    const stored = await call(apiKey, 'POST', '/v1/history/download', { history_item_ids: [id] });
    expect(stored.statusCode).toBe(200);
  });

  it('shows the public name of whoever shared the item last', async () => {
    const { apiKey, ids, workspaceId } = await accountWith([
      { text: 'Shared by two people.', voice: 'Sarah' },
    ]);
    const id = ids[0] as string;
    await call(apiKey, 'POST', '/v1/user/update-public-user-name', { public_user_name: 'First Sharer' });
    const link = (await call(apiKey, 'GET', `/v1/history/${id}/share-link`)).json();
    expect(link.public_user_name).toBe('First Sharer');
    const shareId = link.share_link.split('/').pop();
    // A second member of the workspace, whom the item is shared with as editor, shares it too.
    const db = t.deps.database.db;
    const member = await createTestUser(db, { email: `member-${Date.now()}@example.test` }).then(
      (made) => made.user,
    );
    await db.insert(workspaceMembers).values({ workspaceId, userId: member.id, role: 'member' });
    const grant = await call(apiKey, 'POST', `/v1/workspace/resources/${id}/share`, {
      role: 'editor',
      resource_type: 'history_item',
      user_email: member.email,
    });
    expect(grant.statusCode).toBe(200);
    await updatePublicUserName(db, member.id, 'Second Sharer');
    const again = await shareLinkFor(
      { db, publicUrl: t.deps.config.publicUrl },
      { workspaceId, userId: member.id },
      id,
    );
    expect(again).toEqual({ share_link: link.share_link, public_user_name: 'Second Sharer' });
    const page = await call(undefined, 'GET', `/v1/shared-history/${shareId}`);
    expect(page.json().public_user_name).toBe('Second Sharer');
  });

  it('finds words as PostgreSQL reads them: numbers with dots, addresses', async () => {
    const { sdk, ids } = await accountWith([
      { text: 'Version 3.5 is ready for everyone.', voice: 'Kevin' },
      { text: 'Write to help@parla.example today.', voice: 'Kevin' },
    ]);
    expect((await sdk.history.list({ search: '3.5' })).history.map((h) => h.historyItemId)).toEqual([ids[0]]);
    expect(
      (await sdk.history.list({ search: 'help@parla.example' })).history.map((h) => h.historyItemId),
    ).toEqual([ids[1]]);
    expect((await sdk.history.list({ search: 'ready vers' })).history.map((h) => h.historyItemId)).toEqual([
      ids[0],
    ]);
  });
});
