// @postgres-leg skip: how tags sound on the engines; nothing here depends on the database driver.
import { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';
import { ErrorResponse, PREMADE_VOICES } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeAudio } from '../../test/audio-probe';
import { signUpWithApiKey } from '../../test/factories';
import { characterCountOf } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { historyItems } from '../history/history.tables';

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2', ENGINE_TIMEOUT_MS: '20000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

async function newClient() {
  const created = await signUpWithApiKey(t.app);
  return {
    workspaceId: created.workspaceId,
    sdk: new ElevenLabsClient({ apiKey: created.apiKey, baseUrl, maxRetries: 0 }),
  };
}

const kevin = PREMADE_VOICES.find((v) => v.name === 'Kevin')?.voice_id ?? '';
const TEXT = '[whispers] I have a secret. [long pause] [excited] It is done! [laughs]';
const SPOKEN = 'I have a secret. It is done!';

describe('v3 audio tags through the API (model eleven_v3)', () => {
  it('reads the tags instead of speaking them, aligns the text as written, charges the text as sent', async () => {
    const { sdk, workspaceId } = await newClient();
    const tagged = await sdk.textToSpeech.convertWithTimestamps(kevin, { text: TEXT, modelId: 'eleven_v3' });
    // The same text without its pause.
    const unpaused = TEXT.replace('[long pause] ', '');
    const untagged = await sdk.textToSpeech.convertWithTimestamps(kevin, {
      text: unpaused,
      modelId: 'eleven_v3',
    });
    expect(tagged.alignment?.characters.join('')).toBe(TEXT);
    expect(tagged.normalizedAlignment?.characters.join('')).toBe(SPOKEN);
    // The long pause is one more second of audio.
    const seconds = (r: { audioBase64: string }) => probeAudio(Buffer.from(r.audioBase64, 'base64')).seconds;
    expect(seconds(tagged) - seconds(untagged)).toBeGreaterThan(0.9);
    expect(seconds(tagged) - seconds(untagged)).toBeLessThan(1.1);
    // A tag has no duration.
    const at = TEXT.indexOf('[long pause]');
    expect(tagged.alignment?.characterStartTimesSeconds[at]).toBe(
      tagged.alignment?.characterEndTimesSeconds[at],
    );

    expect(await characterCountOf(t.deps.database.db, workspaceId)).toBe(TEXT.length + unpaused.length);
    const items = await t.deps.database.db
      .select()
      .from(historyItems)
      .where(eq(historyItems.workspaceId, workspaceId));
    expect(items.map((item) => item.text).sort()).toEqual([unpaused, TEXT].sort());
  });

  it('streams chunks with timestamps that add up to the text as written', async () => {
    const { sdk } = await newClient();
    const chunks = [];
    for await (const chunk of await sdk.textToSpeech.streamWithTimestamps(kevin, {
      text: TEXT,
      modelId: 'eleven_v3',
    })) {
      chunks.push(chunk);
    }
    // A line per sentence, and perhaps a last one of audio only (what the encoder still held).
    expect(chunks.filter((c) => c.alignment)).toHaveLength(2);
    expect(chunks.map((c) => c.alignment?.characters.join('') ?? '').join('')).toBe(TEXT);
    expect(chunks.map((c) => c.normalizedAlignment?.characters.join('') ?? '').join('')).toBe(SPOKEN);
  });

  it('a model without audio tags still reads the brackets as text', async () => {
    const { sdk } = await newClient();
    const result = await sdk.textToSpeech.convertWithTimestamps(kevin, {
      text: '[laughs] Hello.',
      modelId: 'eleven_multilingual_v2',
    });
    expect(result.normalizedAlignment?.characters.join('')).toBe('[laughs] Hello.');
  });

  it('refuses a text of audio tags alone (422), charging nothing', async () => {
    const { apiKey, workspaceId } = await signUpWithApiKey(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/text-to-speech/${kevin}`,
      headers: { 'xi-api-key': apiKey },
      payload: { text: '[laughs] [long pause]', model_id: 'eleven_v3' },
    });
    expect(res.statusCode).toBe(422);
    expect(ErrorResponse.parse(res.json()).detail.message).toBe(
      'The text holds only audio tags: there is nothing to speak.',
    );
    expect(await characterCountOf(t.deps.database.db, workspaceId)).toBe(0);
  });
});
