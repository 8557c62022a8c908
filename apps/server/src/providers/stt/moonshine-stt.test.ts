import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PcmAudio } from '@parla/audio';
import { wordErrorRate } from '@parla/audio';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAudio } from '../../platform/media/encode-audio';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { fliteSpeech, joinWithPauses } from '../../test/test-signals';
import { EnginePool } from '../engines/engine-pool';
import { MoonshineStt } from './moonshine-stt';

/** The tests below hear speech with the real models: skipped, with the reason, where they are unavailable. */
const noModel = modelsUnavailable('moonshine-tiny', 'silero-vad');

const FIRST = 'The weather is nice today and the children are playing in the park.';
const SECOND = 'Please bring the blue folder to the meeting on Tuesday morning.';
const THIRD = 'She paid twenty five dollars for a new pair of running shoes.';

let pool: EnginePool;
let stt: MoonshineStt;
let dir: string;
let parts: PcmAudio[];
beforeAll(async () => {
  pool = new EnginePool({ size: 2, timeoutMs: 60_000, logger: pino({ level: 'silent' }) });
  await pool.start();
  stt = new MoonshineStt(pool);
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moonshine-test-'));
  parts = await Promise.all([
    fliteSpeech('slt', FIRST),
    fliteSpeech('awb', SECOND),
    fliteSpeech('slt', THIRD),
  ]);
}, 120_000);
afterAll(async () => {
  await pool.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

async function file(name: string, audio: PcmAudio, format: 'wav_16000' | 'mp3_44100_128' = 'wav_16000') {
  const out = path.join(dir, name);
  await fs.writeFile(out, await encodeAudio({ ...audio, channels: 1 }, format));
  return out;
}

describe('MoonshineStt', () => {
  it('transcribes clear speech with punctuation and case, in the engine children', {
    timeout: 120_000,
  }, async (context) => {
    skipWithout(context, noModel);
    const heard = await stt.transcribeFile({
      file: await file('one.wav', parts[0] as PcmAudio),
      model: 'fast',
      timestamps: 'word',
      tenant: 't',
    });
    expect(heard.languageCode).toBe('eng');
    expect(heard.segments).toHaveLength(1);
    const text = heard.segments[0]?.text ?? '';
    expect(text).toMatch(/^[A-Z]/);
    // Synthetic speech: the recogniser hears "to day" for "today" here.
    expect(wordErrorRate(FIRST, text)).toBeLessThanOrEqual(0.2);
    const words = heard.segments[0]?.words ?? [];
    expect(words.map((w) => w.text).join(' ')).toBe(text);
    for (let i = 1; i < words.length; i += 1)
      expect(words[i]?.start).toBeGreaterThanOrEqual(words[i - 1]?.end ?? 0 - 1e-9);
  });

  it('splits long audio at its pauses and keeps each sentence in its time', {
    timeout: 120_000,
  }, async (context) => {
    skipWithout(context, noModel);
    const joined = joinWithPauses(...(parts as PcmAudio[]));
    const progress: number[] = [];
    const heard = await stt.transcribeFile({
      file: await file('three.mp3', joined, 'mp3_44100_128'),
      model: 'fast',
      timestamps: 'none',
      tenant: 't',
      onProgress: (f) => progress.push(f),
    });
    expect(heard.segments.length).toBeGreaterThanOrEqual(3);
    // Progress reaches the recognised share before the end (not only the jump to 1).
    expect(progress.at(-1)).toBe(1);
    expect(Math.max(...progress.slice(0, -1))).toBeGreaterThan(0.9);
    for (const f of progress) expect(f).toBeGreaterThanOrEqual(0);
    const all = heard.segments.map((s) => s.text).join(' ');
    expect(wordErrorRate(`${FIRST} ${SECOND} ${THIRD}`, all)).toBeLessThanOrEqual(0.15);
    expect(heard.durationSecs).toBeCloseTo(joined.samples.length / joined.sampleRate, 0);
    for (const s of heard.segments) expect(s.words).toEqual([]);
    // The second sentence is heard where it was said.
    const second = heard.segments.find((s) => /meeting/i.test(s.text));
    const firstLength = (parts[0]?.samples.length ?? 0) / (parts[0]?.sampleRate ?? 1);
    expect(second?.start).toBeGreaterThan(firstLength);
  });

  it('tells two voices apart and times the words by alignment', { timeout: 120_000 }, async (context) => {
    skipWithout(context, noModel);
    const joined = joinWithPauses(parts[0] as PcmAudio, parts[1] as PcmAudio);
    const heard = await stt.transcribeFile({
      file: await file('dialogue.wav', joined),
      model: 'fast',
      timestamps: 'character',
      diarize: {},
      audioEvents: true,
      tenant: 't',
    });
    expect(heard.segments.map((s) => s.speaker)).toEqual(['speaker_0', 'speaker_1']);
    // Word times by alignment are not an even spread: words sit inside their segment, in order.
    for (const segment of heard.segments) {
      for (const word of segment.words) {
        expect(word.start).toBeGreaterThanOrEqual(segment.start - 0.2);
        expect(word.end).toBeLessThanOrEqual(segment.end + 0.25);
        expect(word.characters?.map((c) => c.text).join('')).toBe(word.text);
      }
    }
    // Speech and silence only: no sound is tagged.
    expect(heard.events).toEqual([]);
  });

  it('hears nothing in silence', { timeout: 60_000 }, async (context) => {
    skipWithout(context, noModel);
    const silence: PcmAudio = { sampleRate: 16_000, channels: 1, samples: new Int16Array(16_000 * 3) };
    const heard = await stt.transcribeFile({
      file: await file('silence.wav', silence),
      model: 'fast',
      timestamps: 'word',
      tenant: 't',
    });
    expect(heard.segments).toEqual([]);
    expect(heard.durationSecs).toBeCloseTo(3, 1);
  });

  it('transcribes short speech for the captcha, lower case', { timeout: 60_000 }, async (context) => {
    skipWithout(context, noModel);
    const heard = await stt.transcribe(parts[1] as PcmAudio);
    expect(heard).toBe(heard.toLowerCase());
    expect(wordErrorRate(SECOND, heard)).toBeLessThanOrEqual(0.1);
  });

  it('refuses a file with no audio', { timeout: 60_000 }, async () => {
    const text = path.join(dir, 'notes.mp3');
    await fs.writeFile(text, 'not audio at all');
    await expect(
      stt.transcribeFile({ file: text, model: 'fast', timestamps: 'none', tenant: 't' }),
    ).rejects.toThrow(/no audio/);
  });
});
