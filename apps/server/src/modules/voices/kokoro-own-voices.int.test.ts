// @postgres-leg skip: designed voices and clones spoken on Kokoro; their rows are the voices module's, which voices.int covers on PostgreSQL.
import { analyzeVoice, encodeWav, wordErrorRate } from '@parla/audio';
import { parseKokoroBlend } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeToPcm } from '../../platform/media/decode-audio';
import { transformVoice } from '../../platform/media/voice-transform';
import type { EngineSynthesisRequest } from '../../providers/tts/tts-provider';
import { readAll } from '../../test/audio-probe';
import { recordEngineRequests } from '../../test/engine-requests';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { historyRowsOf, newSpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { fliteSpeech, TEN_SECONDS_OF_TEXT } from '../../test/test-signals';
import { generatedVoices } from '../voice-design/voice-design.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { voices } from './voices.tables';

/*
 * Issue 27 item 5 through the official client: a voice designed from a description is a blend of Kokoro
 * voices, saved with it, and speaks through that blend under parla_neural_v1; an instant clone speaks
 * through the Kokoro blend nearest its sample. Seen in the engine requests, the history item's model id and
 * what Moonshine hears.
 */

const noKokoro = modelsUnavailable('kokoro-82m');
const noStt = modelsUnavailable('moonshine-tiny');

let t: TestApp;
let baseUrl: string;
let requests: EngineSynthesisRequest[];
const db = () => t.deps.database.db;

/** What the previews say: the shortest text design takes (100 characters), to keep the engines' work small. */
const PREVIEW_TEXT =
  'The library opens at nine on weekdays. Bring your card, and return the books you borrowed last month.';
const SPOKEN = 'The train to the coast leaves at noon.';
/** What the clone says: long enough for a median pitch, words its sample does not contain. */
const CLONE_TEXT = 'Our neighbours painted their front door a bright shade of yellow last weekend.';

beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2', ENGINE_TIMEOUT_MS: '30000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  requests = recordEngineRequests(t);
});
afterAll(() => t?.close());
beforeEach((context) => {
  requests.length = 0;
  skipWithout(context, noKokoro);
});

async function expectHeard(mp3: Uint8Array, text: string): Promise<void> {
  if (noStt) return;
  const pcm = await decodeToPcm(mp3, { sampleRate: 16_000, maxSeconds: 60 });
  const words = await t.deps.providers.stt.transcribe(pcm, { timeoutMs: 60_000 });
  console.info(`heard: ${words}`);
  expect(wordErrorRate(text, words), words).toBeLessThanOrEqual(1 / 8);
}

describe('own voices on Kokoro with the official client', { timeout: 180_000 }, () => {
  it('a designed voice: three seeded blends as previews, the chosen one saved and spoken by Kokoro', async () => {
    const { sdk, workspaceId } = await newSpeechAccount(t.app, baseUrl);
    const description = 'A warm young British woman, calm and clear, reading a story.';
    const design = await sdk.textToVoice.design({
      voiceDescription: description,
      text: PREVIEW_TEXT,
      seed: 42,
    });
    expect(design.previews).toHaveLength(3);
    // Each preview is spoken by a blend of British women's Kokoro voices, measured once to be saved.
    const rows = await Promise.all(
      design.previews.map(async (p) => {
        const [row] = await db()
          .select()
          .from(generatedVoices)
          .where(eq(generatedVoices.id, p.generatedVoiceId));
        return row;
      }),
    );
    const blends = rows.map((row) => row?.kokoroVoice ?? '');
    expect(new Set(blends).size).toBe(3);
    for (const blend of blends) {
      expect(parseKokoroBlend(blend).length).toBeGreaterThanOrEqual(2);
      for (const part of parseKokoroBlend(blend)) expect(part.voice).toMatch(/^bf_/);
    }
    expect(requests.every((r) => r.engine === 'kokoro')).toBe(true);
    expect(new Set(requests.map((r) => r.voice))).toEqual(new Set(blends));

    const chosen = design.previews[1];
    if (!chosen) throw new Error('no preview');
    const voice = await sdk.textToVoice.create({
      voiceName: 'Reader',
      voiceDescription: description,
      generatedVoiceId: chosen.generatedVoiceId,
    });
    const [saved] = await db().select().from(voices).where(eq(voices.id, voice.voiceId));
    expect(saved?.kokoroVoice).toBe(blends[1]);

    requests.length = 0;
    const audio = await readAll(
      await sdk.textToSpeech.convert(voice.voiceId, { text: SPOKEN, modelId: 'parla_neural_v1' }),
    );
    // The saved blend speaks (its sound measured when it was designed: no engine work beyond the text).
    expect(requests.map((r) => [r.engine, r.voice])).toEqual([['kokoro', blends[1]]]);
    const [item] = await historyRowsOf(db(), workspaceId);
    expect(item).toMatchObject({ modelId: 'parla_neural_v1', voiceName: 'Reader', text: SPOKEN });
    await expectHeard(audio, SPOKEN);
  });

  it('an instant clone: the nearest blend of its gender, spoken by Kokoro moved to the sample', async () => {
    const { sdk, workspaceId } = await newSpeechAccount(t.app, baseUrl);
    await db().update(workspaces).set({ tier: 'starter' }).where(eq(workspaces.id, workspaceId));
    const man = await fliteSpeech('awb', TEN_SECONDS_OF_TEXT);
    const sample = await transformVoice(man, { pitchRatio: 0.8, formantRatio: 0.95 });
    const { voiceId } = await sdk.voices.ivc.create({
      name: 'Low',
      files: [new Blob([encodeWav(sample)], { type: 'audio/wav' })],
    });
    const [row] = await db().select().from(voices).where(eq(voices.id, voiceId));
    const blend = row?.kokoroVoice ?? '';
    for (const part of parseKokoroBlend(blend)) expect(part.voice).toMatch(/^[ab]m_/);

    requests.length = 0;
    const audio = await readAll(
      await sdk.textToSpeech.convert(voiceId, {
        text: CLONE_TEXT,
        modelId: 'eleven_multilingual_v2',
      }),
    );
    expect(new Set(requests.map((r) => `${r.engine} ${r.voice}`))).toContain(`kokoro ${blend}`);
    expect(requests.every((r) => r.engine === 'kokoro')).toBe(true);
    const [item] = await historyRowsOf(db(), workspaceId);
    expect(item?.modelId).toBe('eleven_multilingual_v2');
    // Speech moved from the blend's sound to the sample's: its median pitch near the sample's.
    const pcm = await decodeToPcm(audio, { sampleRate: 16_000, maxSeconds: 60 });
    const sampleHz = analyzeVoice(sample).pitch.medianHz ?? Number.NaN;
    const cloneHz = analyzeVoice(pcm).pitch.medianHz ?? Number.NaN;
    console.info(
      `clone on Kokoro: sample ${sampleHz.toFixed(0)} Hz, speech ${cloneHz.toFixed(0)} Hz (${blend})`,
    );
    expect(Math.abs(cloneHz / sampleHz - 1)).toBeLessThan(0.15);
    await expectHeard(audio, CLONE_TEXT);

    // The same clone as one made before Kokoro (no blend saved): it keeps its classic base's engine.
    await db().update(voices).set({ kokoroVoice: null }).where(eq(voices.id, voiceId));
    requests.length = 0;
    await readAll(
      await sdk.textToSpeech.convert(voiceId, { text: SPOKEN, modelId: 'eleven_multilingual_v2' }),
    );
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.some((r) => r.engine === 'kokoro')).toBe(false);
    const classic = await sdk.textToSpeech
      .convert(voiceId, { text: SPOKEN, modelId: 'parla_neural_v1' })
      .catch((error: unknown) => error);
    expect((classic as { statusCode?: number }).statusCode).toBe(422);
  });
});
