import { wordErrorRate } from '@parla/audio';
import { PREMADE_VOICES } from '@parla/contracts';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EnginePool } from '../../providers/engines/engine-pool';
import { MoonshineStt } from '../../providers/stt/moonshine-stt';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { synthesizeSpeech } from './speech-pipeline';

/** The speech is heard back by the real speech-to-text models: skipped, with the reason, without them. */
const noModel = modelsUnavailable('moonshine-tiny', 'silero-vad');
beforeEach((context) => skipWithout(context, noModel));

/** Five everyday sentences, 57 words. */
const SENTENCES =
  "The meeting has been moved to Thursday afternoon at three o'clock. Please bring the quarterly report and your laptop. The weather will be sunny with a light breeze from the west. We need to buy milk, bread and fresh eggs before the store closes. She finished reading the book and went to sleep early.";

let pool: EnginePool;
let stt: MoonshineStt;
beforeAll(async () => {
  pool = new EnginePool({ size: 2, timeoutMs: 30_000, logger: pino({ level: 'silent' }) });
  await pool.start();
  stt = new MoonshineStt(pool);
});
const transcribe = (speech: { sampleRate: number; samples: Int16Array }) => stt.transcribe(speech);
afterAll(() => pool.stop());

const settings = { speed: 1, stability: 0.5, style: 0, useSpeakerBoost: true };

describe('round trip: speech → the speech-to-text model → the same words (issue 4, heard by Moonshine since issue 19)', () => {
  it('wordErrorRate counts substitutions, insertions and deletions per reference word', () => {
    expect(wordErrorRate('the cat sat', 'the cat sat')).toBe(0);
    expect(wordErrorRate('the cat sat', 'the bat sat down')).toBeCloseTo(2 / 3);
    expect(wordErrorRate("at three o'clock.", 'at three o’clock')).toBe(0);
  });

  // The best English voice (Festival's HTS voice) at most 10%, every Flite voice at most 15%.
  it.each([
    ['festival slt-hts (Sarah)', { engine: 'festival', voice: 'cmu_us_slt_arctic_hts' }, 0.1],
    ['flite slt', { engine: 'flite', voice: 'slt' }, 0.15],
    ['flite rms', { engine: 'flite', voice: 'rms' }, 0.15],
    ['flite awb', { engine: 'flite', voice: 'awb' }, 0.15],
    ['flite kal16', { engine: 'flite', voice: 'kal16' }, 0.15],
  ] as const)('%s is understood', async (name, voice, limit) => {
    const speech = await synthesizeSpeech(pool, { text: SENTENCES, voice, settings, normalize: true });
    const heard = await transcribe(speech);
    const wer = wordErrorRate(SENTENCES, heard);
    console.info(`WER ${name}: ${(wer * 100).toFixed(1)}%`);
    expect(wer, heard).toBeLessThanOrEqual(limit);
  });

  it('every English premade voice on its own engine stays understandable', async () => {
    const english = PREMADE_VOICES.filter((v) => v.language === 'en' && v.primary.engine !== 'espeak');
    for (const voice of english) {
      const speech = await synthesizeSpeech(pool, {
        text: SENTENCES,
        voice: voice.primary,
        settings,
        normalize: true,
      });
      const wer = wordErrorRate(SENTENCES, await transcribe(speech));
      console.info(`WER ${voice.name}: ${(wer * 100).toFixed(1)}%`);
      expect(wer, voice.name).toBeLessThanOrEqual(0.2);
    }
  });
});
