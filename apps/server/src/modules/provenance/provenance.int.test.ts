import { encodeWav } from '@parla/audio';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeToPcm } from '../../platform/media/decode-audio';
import { callAs, newSpeechAccount, premadeVoiceId } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { fliteSpeech } from '../../test/test-signals';
import { workspaces } from '../workspaces/workspaces.tables';
import { findGeneratedMatch } from '.';
import { generatedAudio, generatedAudioLandmarks } from './provenance.tables';

/*
 * The installation's own output is recognised (issue 26 item 7): each way of sending generated audio keeps
 * its fingerprint, a recording of it is found whichever workspace made it, and the fingerprints go with
 * their workspace. Short texts: the engines' work here is a few seconds of speech.
 */

let t: TestApp;
let baseUrl: string;
const db = () => t.deps.database.db;
const ALAN = premadeVoiceId('Alan');

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const decode = (bytes: Buffer) => decodeToPcm(bytes, { sampleRate: 16_000, maxSeconds: 60 });

async function post(key: string, path: string, body: unknown): Promise<Buffer> {
  const answer = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'xi-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await answer.arrayBuffer());
  expect(answer.status, bytes.toString().slice(0, 200)).toBe(200);
  return bytes;
}

describe('the fingerprints of generated audio', () => {
  it('are kept for speech, streams, dialogues and conversions, found by a lookup that names no workspace, gone with theirs', async () => {
    const maker = await newSpeechAccount(t.app, baseUrl);
    const speech = await post(maker.key, `/v1/text-to-speech/${ALAN}`, {
      text: 'The weather will be sunny with a light breeze from the west.',
    });
    const stream = await post(maker.key, `/v1/text-to-speech/${ALAN}/stream?output_format=opus_48000_32`, {
      text: 'My brother moved to a new apartment near the river last spring.',
    });
    const dialogue = await post(maker.key, '/v1/text-to-dialogue', {
      inputs: [
        { text: 'Good morning. Did you bring the report?', voice_id: premadeVoiceId('Sarah') },
        { text: 'Of course, it is right here on my desk.', voice_id: ALAN },
      ],
    });
    const form = new FormData();
    const input = await fliteSpeech(
      'slt',
      'They watched the sun go down over the hills from the old stone bridge.',
    );
    form.append('audio', new Blob([encodeWav(input)], { type: 'audio/wav' }), 'input.wav');
    const converted = await fetch(`${baseUrl}/v1/speech-to-speech/${ALAN}`, {
      method: 'POST',
      headers: { 'xi-api-key': maker.key },
      body: form,
    });
    expect(converted.status).toBe(200);
    const conversion = Buffer.from(await converted.arrayBuffer());

    // Looked up at once, as a verification right after the download would: the lookup waits for them.
    const expected = [
      [speech, 'text_to_speech'],
      [stream, 'text_to_speech_stream'],
      [dialogue, 'dialogue'],
      [conversion, 'speech_to_speech'],
    ] as const;
    for (const [bytes, source] of expected) {
      const match = await findGeneratedMatch({ db: db() }, await decode(bytes));
      expect(match, source).toMatchObject({ source });
      expect(match?.alignedHashes).toBeGreaterThanOrEqual(15);
    }
    // The conversion's input is someone's own speech, not the installation's output.
    expect(await findGeneratedMatch({ db: db() }, input)).toBeUndefined();
    const kept = await db()
      .select({ source: generatedAudio.source })
      .from(generatedAudio)
      .where(eq(generatedAudio.workspaceId, maker.workspaceId));
    expect(kept.map((row) => row.source).sort()).toEqual([
      'dialogue',
      'speech_to_speech',
      'text_to_speech',
      'text_to_speech_stream',
    ]);

    // Deleting the workspace (account deletion deletes its row) removes them and their landmarks.
    const ids = (
      await db()
        .select({ id: generatedAudio.id })
        .from(generatedAudio)
        .where(eq(generatedAudio.workspaceId, maker.workspaceId))
    ).map((row) => row.id);
    await db().delete(workspaces).where(eq(workspaces.id, maker.workspaceId));
    const [landmarks] = await db()
      .select({ count: sql<number>`count(*)::int` })
      .from(generatedAudioLandmarks)
      .where(inArray(generatedAudioLandmarks.audioId, ids));
    expect(landmarks?.count).toBe(0);
    expect(await findGeneratedMatch({ db: db() }, await decode(speech))).toBeUndefined();
  }, 120_000);

  it('keeps a premade voice preview once, as the installation’s own', async () => {
    const account = await newSpeechAccount(t.app, baseUrl);
    const preview = await callAs(t.app, account, 'GET', `/v1/voices/${ALAN}`);
    const url = preview.json().preview_url as string;
    const audio = Buffer.from(await (await fetch(url.replace(/^https?:\/\/[^/]+/, baseUrl))).arrayBuffer());
    const match = await findGeneratedMatch({ db: db() }, await decode(audio));
    expect(match).toMatchObject({ source: 'voice_preview' });
    const rows = await db()
      .select({ workspaceId: generatedAudio.workspaceId })
      .from(generatedAudio)
      .where(eq(generatedAudio.subject, `voice-preview:${ALAN}`));
    expect(rows).toEqual([{ workspaceId: null }]);
  }, 60_000);
});
