import { characterTimes, normalizeEnglish, originalTimes, toAlignment } from '@parla/audio';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineFailure, EnginePool } from '../../providers/engines/engine-pool';
import type { TtsProvider } from '../../providers/tts/tts-provider';
import { exaggerateEnergy, speakerBoost } from './delivery';
import {
  engineProsody,
  normalizeFor,
  type SpeechRequest,
  type SpeechSentence,
  type SpeechSettings,
  StreamAligner,
  speakSentences,
  synthesizeSpeech,
} from './speech-pipeline';

let pool: EnginePool;
beforeAll(async () => {
  pool = new EnginePool({ size: 2, timeoutMs: 20_000, logger: pino({ level: 'silent' }) });
  await pool.start();
});
afterAll(() => pool.stop());

const settings: SpeechSettings = { speed: 1, stability: 0.5, style: 0, useSpeakerBoost: true };
const nonDecreasing = (values: number[]) => values.every((v, i) => i === 0 || v >= (values[i - 1] ?? 0));

describe('the speech pipeline', () => {
  it('speaks normalised text and aligns every written character, in order', async () => {
    const text = 'It costs $5 on May 31, 2024. Call me at 3:30!';
    const result = await synthesizeSpeech(pool, {
      text,
      voice: { engine: 'flite', voice: 'kal16' },
      settings,
      normalize: true,
    });
    const seconds = result.samples.length / result.sampleRate;
    expect(result.normalized.text).toBe(
      'It costs five dollars on May thirty-first, twenty twenty-four. Call me at three thirty!',
    );
    expect(result.alignment.characters.join('')).toBe(text);
    expect(result.normalizedAlignment.characters.join('')).toBe(result.normalized.text);
    expect(nonDecreasing(result.alignment.character_start_times_seconds)).toBe(true);
    expect(result.alignment.character_end_times_seconds.at(-1)).toBeLessThanOrEqual(seconds + 0.01);
    // "$5" spans the time of "five dollars".
    const dollar = text.indexOf('$');
    const five = result.normalized.text.indexOf('five');
    expect(result.alignment.character_start_times_seconds[dollar]).toBeCloseTo(
      result.normalizedAlignment.character_start_times_seconds[five] ?? -1,
      2,
    );
  });

  it('keeps the sentences in order when they run in parallel, with exact eSpeak word times', async () => {
    const text = 'First sentence here. Second one follows. Third is the last.';
    const result = await synthesizeSpeech(pool, {
      text,
      voice: { engine: 'espeak', voice: 'en-us' },
      settings,
      normalize: true,
    });
    const starts = result.alignment.character_start_times_seconds;
    expect(nonDecreasing(starts)).toBe(true);
    expect(starts[text.indexOf('Third')]).toBeGreaterThan(starts[text.indexOf('Second')] ?? 0);
  });

  it('speaks faster with speed 1.2 than 0.7, and speaker boost keeps the peaks under −1 dBFS', async () => {
    const request = {
      text: 'A steady test sentence for the speed setting.',
      voice: { engine: 'flite' as const, voice: 'slt' },
      normalize: false,
    };
    const fast = await synthesizeSpeech(pool, { ...request, settings: { ...settings, speed: 1.2 } });
    const slow = await synthesizeSpeech(pool, { ...request, settings: { ...settings, speed: 0.7 } });
    expect(fast.samples.length / slow.samples.length).toBeLessThan(0.75);
    expect(Math.max(...fast.samples.map(Math.abs))).toBeLessThanOrEqual(Math.round(32767 * 10 ** (-1 / 20)));
  });

  it('gives identical bytes for identical input', async () => {
    const request = {
      text: 'Same words, same sound.',
      voice: { engine: 'espeak' as const, voice: 'en-us+f3' },
      settings,
      normalize: true,
    };
    const a = await synthesizeSpeech(pool, request);
    const b = await synthesizeSpeech(pool, request);
    expect(Buffer.from(a.samples.buffer).equals(Buffer.from(b.samples.buffer))).toBe(true);
  });
});

describe('settings and alignment rules', () => {
  it('aligns an emoji as one character, and a lone surrogate as U+FFFD (JSON storage refuses it)', () => {
    const text = 'Hi 🙂 \ud83d!';
    const times = Array.from({ length: text.length }, (_, i) => [i * 100, i * 100 + 100] as [number, number]);
    const alignment = toAlignment(text, times);
    expect(alignment.characters).toEqual(['H', 'i', ' ', '🙂', ' ', '\ufffd', '!']);
    // The emoji spans both of its UTF-16 units' times.
    expect(alignment.character_start_times_seconds[3]).toBe(0.3);
    expect(alignment.character_end_times_seconds[3]).toBe(0.5);
    expect(alignment.character_start_times_seconds).toHaveLength(7);
    expect(() => JSON.parse(JSON.stringify(alignment))).not.toThrow();
    expect(JSON.stringify(alignment)).not.toMatch(/\\ud83d(?!\\ude42)/);
  });

  it('maps stability and style onto the intonation range, speed onto the rate', () => {
    expect(engineProsody({ engine: 'flite', voice: 'slt' }, { ...settings, stability: 1 })).toMatchObject({
      range: 0.5,
      rate: 1,
    });
    expect(
      engineProsody({ engine: 'flite', voice: 'slt' }, { ...settings, stability: 0, style: 1 }).range,
    ).toBe(2);
    expect(
      engineProsody({ engine: 'flite', voice: 'slt', rate: 1.05 }, { ...settings, speed: 1.2 }).rate,
    ).toBeCloseTo(1.26);
  });

  it('spreads a word over its characters and gives the gaps the silence between words', () => {
    const times = characterTimes(
      'ab  cd',
      [
        { start: 0, end: 2, startMs: 0, endMs: 200 },
        { start: 4, end: 6, startMs: 300, endMs: 500 },
      ],
      600,
    );
    expect(times).toEqual([
      [0, 100],
      [100, 200],
      [200, 300],
      [200, 300],
      [300, 400],
      [400, 500],
    ]);
  });

  it('spreads a replaced stretch over the written characters', () => {
    const normalized = normalizeEnglish('$5!');
    const spoken = characterTimes(
      normalized.text,
      [
        { start: 0, end: 4, startMs: 0, endMs: 400 },
        { start: 5, end: 12, startMs: 400, endMs: 1000 },
      ],
      1100,
    );
    const times = originalTimes(normalized, spoken, 3);
    expect(times[0]?.[0]).toBe(0);
    expect(times[1]?.[1]).toBe(1000);
    expect(times[2]?.[0]).toBe(1000);
  });

  it('leaves silence alone when boosting or exaggerating', () => {
    expect([...speakerBoost(new Int16Array([0, 0]), 16_000)]).toEqual([0, 0]);
    expect([...exaggerateEnergy(new Int16Array([0, 0]), 16_000, 1)]).toEqual([0, 0]);
  });
});

// Several syntheses per test, Festival among them: more than the default 5 s on a busy machine.
describe('v3 audio tags on the real engines (reads_audio_tags)', { timeout: 30_000 }, () => {
  const v3 = (text: string, voice: SpeechRequest['voice'], extra: Partial<SpeechRequest> = {}) =>
    synthesizeSpeech(pool, { text, voice, settings, normalize: true, readsAudioTags: true, ...extra });
  const ms = (r: { samples: Int16Array; sampleRate: number }) => (r.samples.length / r.sampleRate) * 1000;
  const rmsDb = (samples: Int16Array) =>
    20 * Math.log10(Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length) / 32767);
  /** The longest run of exact digital silence, in ms. */
  const longestSilenceMs = (r: { samples: Int16Array; sampleRate: number }) => {
    let longest = 0;
    let run = 0;
    for (const s of r.samples) {
      run = s === 0 ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    return (longest / r.sampleRate) * 1000;
  };
  /** Share of the loud 30 ms frames with a clear pitch period (80–400 Hz): about 0 for a whisper. */
  const voicedShare = (r: { samples: Int16Array; sampleRate: number }) => {
    const frame = Math.round(r.sampleRate * 0.03);
    const peak = Math.max(...r.samples.map(Math.abs));
    let loud = 0;
    let voiced = 0;
    for (let i = 0; i + frame < r.samples.length; i += frame) {
      const f = r.samples.subarray(i, i + frame);
      if (Math.sqrt(f.reduce((sum, x) => sum + x * x, 0) / frame) < peak * 0.05) continue;
      loud += 1;
      let best = 0;
      for (let lag = Math.round(r.sampleRate / 400); lag <= Math.round(r.sampleRate / 80); lag += 1) {
        let c = 0;
        let a = 0;
        let b = 0;
        for (let k = 0; k + lag < frame; k += 1) {
          const x = f[k] ?? 0;
          const y = f[k + lag] ?? 0;
          c += x * y;
          a += x * x;
          b += y * y;
        }
        best = Math.max(best, c / Math.sqrt(a * b + 1));
      }
      if (best > 0.6) voiced += 1;
    }
    return voiced / Math.max(1, loud);
  };
  const espeak = { engine: 'espeak' as const, voice: 'en-us+f3' };
  const SECRET = 'I have a secret that nobody knows.';

  it.each([
    ['eSpeak-NG', espeak],
    ['flite', { engine: 'flite' as const, voice: 'kal16' }],
  ])(
    '%s: [long pause] adds 1 s and [short pause] 0.25 s of real silence between sentences',
    async (_, voice) => {
      const plain = await v3(`${SECRET} It is done.`, voice);
      const long = await v3(`${SECRET} [long pause] It is done.`, voice);
      const short = await v3(`${SECRET} [short pause] It is done.`, voice);
      expect(ms(long) - ms(plain)).toBeCloseTo(1000, -1);
      expect(ms(short) - ms(plain)).toBeCloseTo(250, -1);
      expect(longestSilenceMs(long)).toBeGreaterThanOrEqual(1000);
      expect(longestSilenceMs(plain)).toBeLessThan(250);
    },
  );

  it('a pause inside a sentence splits it there with at least the stated silence', async () => {
    const plain = await v3('Wait what is this?', espeak);
    const paused = await v3('Wait [pause] what is this?', espeak);
    expect(ms(paused) - ms(plain)).toBeGreaterThan(450);
    expect(longestSilenceMs(paused)).toBeGreaterThanOrEqual(500);
  });

  it.each([
    ['eSpeak-NG (whisper variant)', espeak, 12],
    ['flite', { engine: 'flite' as const, voice: 'slt' }, 10],
    ['festival', { engine: 'festival' as const, voice: 'cmu_us_slt_arctic_hts' }, 10],
  ])('%s: [whispers] makes the sentence quieter', async (_, voice, atLeastDb) => {
    const plain = await v3(SECRET, voice);
    const whispered = await v3(`[whispers] ${SECRET}`, voice);
    const drop = rmsDb(plain.samples) - rmsDb(whispered.samples);
    expect(drop).toBeGreaterThan(atLeastDb);
    // Only the whispered sentence: the next one is back to normal.
    const both = await v3(`[whispers] ${SECRET} ${SECRET}`, voice);
    const half = Math.round(both.samples.length / 2);
    expect(rmsDb(both.samples.subarray(half)) - rmsDb(both.samples.subarray(0, half))).toBeGreaterThan(8);
  });

  it('eSpeak-NG whispers without voicing (its +whisper variant)', async () => {
    const plain = voicedShare(await v3(SECRET, espeak));
    const whispered = voicedShare(await v3(`[whispers] ${SECRET}`, espeak));
    expect(plain).toBeGreaterThan(0.7);
    expect(whispered).toBeLessThan(0.2);
  });

  it('[shouts] and [excited] are louder, [excited] and [fast] faster, [slowly] slower', async () => {
    const plain = await v3(SECRET, espeak);
    const shouts = await v3(`[shouts] ${SECRET}`, espeak);
    const excited = await v3(`[excited] ${SECRET}`, espeak);
    const slowly = await v3(`[slowly] ${SECRET}`, espeak);
    const fast = await v3(`[fast] ${SECRET}`, espeak);
    expect(rmsDb(shouts.samples) - rmsDb(plain.samples)).toBeGreaterThan(3);
    expect(rmsDb(excited.samples) - rmsDb(plain.samples)).toBeGreaterThan(1.5);
    expect(ms(excited) / ms(plain)).toBeLessThan(0.95);
    expect(ms(fast) / ms(plain)).toBeLessThan(0.85);
    expect(ms(slowly) / ms(plain)).toBeGreaterThan(1.15);
    // Louder never clips: the peak stays at −1 dBFS.
    expect(Math.max(...shouts.samples.map(Math.abs))).toBeLessThanOrEqual(
      Math.round(32767 * 10 ** (-1 / 20)),
    );
  });

  it('never speaks a tag: [laughs] Hello. is as long as Hello.; other models still read the brackets', async () => {
    const hello = await v3('Hello.', espeak);
    for (const text of ['[laughs] Hello.', '[sighs] Hello. [flibbertigibbet]', 'Hello [clears throat].']) {
      const tagged = await v3(text, espeak);
      expect(tagged.normalized.text, text).toBe('Hello.');
      // eSpeak's samples vary slightly from one engine child to another; the length does not.
      expect(Math.abs(ms(tagged) - ms(hello)), text).toBeLessThan(20);
    }
    const v2 = await v3('[laughs] Hello.', espeak, { readsAudioTags: false });
    expect(v2.normalized.text).toBe('[laughs] Hello.');
    expect(ms(v2) - ms(hello)).toBeGreaterThan(200);
  });

  it('aligns every written character, the tags with no duration where they stand', async () => {
    const text = '[whispers] I have a secret. [long pause] [excited] It is done! [laughs]';
    const result = await v3(text, { engine: 'flite', voice: 'kal16' });
    const { alignment, normalizedAlignment } = result;
    expect(result.normalized.text).toBe('I have a secret. It is done!');
    expect(alignment.characters.join('')).toBe(text);
    expect(normalizedAlignment.characters.join('')).toBe('I have a secret. It is done!');
    const starts = alignment.character_start_times_seconds;
    const ends = alignment.character_end_times_seconds;
    expect(nonDecreasing(starts)).toBe(true);
    expect(ends.at(-1)).toBeLessThanOrEqual(ms(result) / 1000 + 0.01);
    for (const tag of ['[whispers] ', ' [long pause] [excited] ', ' [laughs]']) {
      const at = text.indexOf(tag);
      for (let i = at; i < at + tag.length; i += 1) expect(starts[i], `${tag} ${i}`).toBe(ends[i]);
    }
    // The pause sits between "secret." and "It": a second of audio with no character spoken.
    const secretEnd = ends[text.indexOf('secret') + 5] ?? 0;
    expect((starts[text.indexOf('It')] ?? 0) - secretEnd).toBeGreaterThan(1);
    expect(starts[text.indexOf('[long')]).toBeCloseTo(secretEnd, 2);
  });

  it('streams chunks whose characters add up to the text as written', async () => {
    const request: SpeechRequest = {
      text: '[whispers] First part. [pause] Second [slowly] part! Third [laughs] part. [long pause]',
      voice: espeak,
      settings,
      normalize: true,
      readsAudioTags: true,
    };
    const normalized = normalizeFor(request);
    const aligner = new StreamAligner(request.text, normalized);
    const chunks = [];
    for await (const sentence of speakSentences(pool, request, normalized))
      chunks.push(aligner.next(sentence));
    expect(chunks).toHaveLength(3);
    expect(chunks.map((c) => c.alignment.characters.join('')).join('')).toBe(request.text);
    expect(chunks.map((c) => c.normalized_alignment.characters.join('')).join('')).toBe(normalized.text);
    expect(nonDecreasing(chunks.flatMap((c) => c.alignment.character_start_times_seconds))).toBe(true);
  });
});

describe('speakSentences scheduling', () => {
  /** A provider that answers at once and records the texts it was asked for, in order. */
  const recorder = (fail?: (text: string) => boolean, reason: EngineFailure['reason'] = 'crashed') => {
    const asked: string[] = [];
    const provider: TtsProvider = {
      size: 2,
      synthesize: async (request) => {
        asked.push(request.text);
        if (fail?.(request.text)) throw new EngineFailure(reason, 'engine failed');
        return { sampleRate: 16_000, samples: new Int16Array(160).fill(100), words: [], timing: 'estimated' };
      },
    };
    return { asked, provider };
  };
  const request: SpeechRequest = {
    text: 'One. Two. Three. Four. Five.',
    voice: { engine: 'flite', voice: 'kal16' },
    settings,
    normalize: false,
  };

  it('keeps up to the pool size ahead of the sentence awaited', async () => {
    const { asked, provider } = recorder();
    const sentences = speakSentences(provider, request);
    await sentences.next();
    expect(asked).toEqual(['One.', 'Two.', 'Three.']);
    await sentences.next();
    expect(asked).toHaveLength(4);
  });

  it('with firstAlone, the first sentence runs alone until the second is asked for', async () => {
    const { asked, provider } = recorder();
    const sentences = speakSentences(provider, request, undefined, { firstAlone: true });
    await sentences.next();
    expect(asked).toEqual(['One.']);
    await sentences.next();
    expect(asked).toEqual(['One.', 'Two.', 'Three.', 'Four.']);
  });

  it('with firstAlone on Kokoro, the first sentence is cut after its first phrase and sent first', async () => {
    const { asked, provider } = recorder();
    const kokoro: SpeechRequest = {
      ...request,
      text: 'When the morning train finally arrived, everyone on the platform cheered loudly. Then quiet.',
      voice: { engine: 'kokoro', voice: 'af_heart' },
    };
    const normalized = normalizeFor(kokoro);
    const aligner = new StreamAligner(kokoro.text, normalized);
    const sentences = speakSentences(provider, kokoro, normalized, { firstAlone: true });
    const chunks = [];
    const first = await sentences.next();
    expect(asked).toEqual(['When the morning train finally arrived,']);
    chunks.push(aligner.next(first.value as SpeechSentence));
    for await (const sentence of sentences) chunks.push(aligner.next(sentence));
    expect(asked).toEqual([
      'When the morning train finally arrived,',
      'everyone on the platform cheered loudly.',
      'Then quiet.',
    ]);
    // The chunks still cover the text as written, the last taking the rest.
    expect(chunks).toHaveLength(3);
    expect(chunks.map((c) => c.alignment.characters.join('')).join('')).toBe(kokoro.text);
    // Not a stream, or a classic engine: sentences whole.
    asked.length = 0;
    for await (const _ of speakSentences(provider, kokoro)) void _;
    expect(asked).toHaveLength(2);
    asked.length = 0;
    const flite = { ...kokoro, voice: { engine: 'flite' as const, voice: 'kal16' } };
    for await (const _ of speakSentences(provider, flite, undefined, { firstAlone: true })) void _;
    expect(asked).toHaveLength(2);
  });

  it('does not try again a sentence the engine refused, nor one that found every engine busy', async () => {
    for (const reason of ['error', 'busy'] as const) {
      const failing = recorder((text) => text === 'One.', reason);
      await expect(speakSentences(failing.provider, request).next()).rejects.toThrow('engine failed');
      expect(failing.asked.filter((text) => text === 'One.')).toHaveLength(1);
    }
  });

  it('tries a sentence whose engine crashed once more, but not a cancelled one', async () => {
    const failing = recorder((text) => text === 'One.');
    await expect(speakSentences(failing.provider, request).next()).rejects.toThrow('engine failed');
    expect(failing.asked.filter((text) => text === 'One.')).toHaveLength(2);

    const cancel = new AbortController();
    cancel.abort();
    const cancelled = recorder(() => true);
    await expect(
      speakSentences(cancelled.provider, request, undefined, { signal: cancel.signal }).next(),
    ).rejects.toThrow('engine failed');
    expect(cancelled.asked.filter((text) => text === 'One.')).toHaveLength(1);
  });
});
