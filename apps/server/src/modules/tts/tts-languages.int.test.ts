// @postgres-leg skip: which languages the engines speak; nothing here depends on the database driver.
import { ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { ErrorResponse, findSpokenLanguage, ModelResponse, SPOKEN_LANGUAGES } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAll } from '../../test/audio-probe';
import {
  callAs,
  characterCountOf,
  historyRowsOf,
  newSpeechAccount,
  premadeVoiceId,
  type SpeechAccount,
} from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let account: SpeechAccount;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2', ENGINE_TIMEOUT_MS: '20000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  account = await newSpeechAccount(t.app, baseUrl);
});
afterAll(() => t.close());

const GERMAN = 'Das Wetter ist heute schön, und wir gehen im Park spazieren.';

/** Raw samples of a text in a voice, with the body's other fields (no history, so nothing is kept). */
async function pcm(voice: string, body: Record<string, unknown>): Promise<Buffer> {
  const res = await callAs(
    t.app,
    account,
    'POST',
    `/v1/text-to-speech/${premadeVoiceId(voice)}?output_format=pcm_22050&enable_logging=false`,
    { text: GERMAN, ...body },
  );
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res.rawPayload;
}

describe('language_code (issue 18 item 4: languages that are true)', () => {
  it("speaks the text in language_code with the voice's language rendition; without it, as before", async () => {
    const model = { model_id: 'eleven_flash_v2_5' };
    // Sarah is an American voice (variant f3); Anna is German with the same variant: in German, Sarah
    // speaks exactly as Anna does.
    const sarahInGerman = await pcm('Sarah', { ...model, language_code: 'de' });
    const anna = await pcm('Anna', model);
    expect(sarahInGerman.equals(anna)).toBe(true);
    // With no language_code: today's behaviour, Sarah's own (English) rendition.
    const sarah = await pcm('Sarah', model);
    expect(sarah.equals(sarahInGerman)).toBe(false);
    // A region and any case name the same language.
    expect((await pcm('Sarah', { ...model, language_code: 'DE-at' })).equals(anna)).toBe(true);
  });

  it('answers 400 unsupported_language when the model cannot speak it, and charges nothing', async () => {
    const { sdk, workspaceId } = await newSpeechAccount(t.app, baseUrl);
    const error = await sdk.textToSpeech
      .convert(premadeVoiceId('Sarah'), { text: GERMAN, modelId: 'eleven_flash_v2', languageCode: 'de' })
      .then(readAll)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElevenLabsError);
    expect((error as ElevenLabsError).statusCode).toBe(400);
    expect(ErrorResponse.parse((error as ElevenLabsError).body).detail).toEqual({
      status: 'unsupported_language',
      message: "Model 'eleven_flash_v2' does not support language_code 'de'.",
    });
    for (const code of ['xx', 'ko']) {
      const res = await callAs(t.app, account, 'POST', `/v1/text-to-speech/${premadeVoiceId('Anna')}`, {
        text: GERMAN,
        language_code: code,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail.status).toBe('unsupported_language');
    }
    expect(await characterCountOf(t.deps.database.db, workspaceId)).toBe(0);
    expect(await historyRowsOf(t.deps.database.db, workspaceId)).toEqual([]);
  });

  it('follows language_code on every line of a dialogue', async () => {
    const res = await callAs(t.app, account, 'POST', '/v1/text-to-dialogue?enable_logging=false', {
      inputs: [
        { text: 'Guten Morgen!', voice_id: premadeVoiceId('Sarah') },
        { text: 'Guten Morgen, wie geht es dir?', voice_id: premadeVoiceId('Ryan') },
      ],
      language_code: 'de',
    });
    expect(res.statusCode).toBe(200);
    const refused = await callAs(t.app, account, 'POST', '/v1/text-to-dialogue', {
      inputs: [{ text: 'Guten Morgen!', voice_id: premadeVoiceId('Sarah') }],
      language_code: 'tlh',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail.status).toBe('unsupported_language');
  });

  it('lists for each model only languages it speaks, each accepted as a language_code', async () => {
    const res = await callAs(t.app, account, 'GET', '/v1/models');
    const models = ModelResponse.array().parse(res.json());
    for (const model of models.filter((m) => m.can_do_text_to_speech)) {
      for (const language of model.languages ?? []) {
        expect(findSpokenLanguage(language.language_id)?.name).toBe(language.name);
      }
    }
    const byId = (id: string) => models.find((m) => m.model_id === id)?.languages?.map((l) => l.language_id);
    expect(byId('parla_v1')).toEqual(SPOKEN_LANGUAGES.map((l) => l.language_id));
    expect(byId('eleven_flash_v2')).toEqual(['en']);
    // A few of the listed languages, spoken by an English voice through the API.
    for (const [code, text] of [
      ['fr', 'Bonjour à tous.'],
      ['sv', 'Hej allihopa.'],
      ['ru', 'Всем привет.'],
      ['zh', '大家好。'],
    ]) {
      const spoken = await pcm('Ryan', { model_id: 'parla_v1', text, language_code: code });
      expect(spoken.length).toBeGreaterThan(22050 * 2 * 0.2);
    }
  });
});
