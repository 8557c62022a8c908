import { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';
import { PREMADE_VOICES } from '@parla/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeAudio, readAll } from '../../test/audio-probe';
import { signUpWithApiKey } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const voice = (name: string) => PREMADE_VOICES.find((v) => v.name === name)?.voice_id ?? '';

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
