import { encodeWav, type PcmAudio } from '@parla/audio';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  correlation,
  fliteSpeech,
  formantWarp,
  harmonicTone,
  medianPitch,
  spectralCentroid,
  TEN_SECONDS_OF_TEXT,
} from '../../test/test-signals';
import { decodeToPcm } from './decode-audio';
import { MAX_RATIO, MIN_RATIO, transformVoice, voiceTransformFilter } from './voice-transform';

/** The asetrate and rubberband figures of a chain. */
function stagesOf(filter: string) {
  const number = (pattern: RegExp) => Number(pattern.exec(filter)?.[1]);
  return {
    rate: filter.includes('asetrate') ? number(/asetrate=(\d+)/) : undefined,
    tempo: number(/tempo=([\d.]+)/),
    pitch: number(/pitch=([\d.]+)/),
  };
}

describe('voiceTransformFilter', () => {
  it('is anull for identity, and rubberband alone when the formants stay', () => {
    expect(voiceTransformFilter({ pitchRatio: 1, formantRatio: 1 }, 16_000)).toBe('anull');
    expect(voiceTransformFilter({ pitchRatio: 1.0004, formantRatio: 0.9996, tempoRatio: 1 }, 16_000)).toBe(
      'anull',
    );
    expect(voiceTransformFilter({ pitchRatio: 1.3, formantRatio: 1 }, 16_000)).toBe(
      'rubberband=tempo=1.000000:pitch=1.300000:formant=preserved:pitchq=quality:channels=536870912',
    );
    expect(voiceTransformFilter({ pitchRatio: 1, formantRatio: 1.15 }, 16_000)).toBe(
      'asetrate=18400,aresample=16000,rubberband=tempo=0.869565:pitch=0.869565:formant=preserved:pitchq=quality:channels=536870912',
    );
  });

  it('multiplies out to the pitch, formant and duration asked, whatever the ratios', () => {
    const ratio = fc.double({ min: MIN_RATIO, max: MAX_RATIO, noNaN: true });
    fc.assert(
      fc.property(
        ratio,
        ratio,
        ratio,
        fc.constantFrom(16_000, 22_050, 24_000, 44_100, 48_000),
        (p, f, t, sr) => {
          const filter = voiceTransformFilter({ pitchRatio: p, formantRatio: f, tempoRatio: t }, sr);
          if (filter === 'anull') return;
          const { rate, tempo, pitch } = stagesOf(filter);
          const formant = (rate ?? sr) / sr;
          if (rate !== undefined) expect(Math.abs(formant - f)).toBeLessThan(1 / sr + 1e-9);
          // asetrate moves pitch and formants by f and the pace by f; rubberband the pitch by p/f, the pace t/f.
          expect(formant * pitch).toBeCloseTo(Math.abs(p - 1) < 0.001 ? 1 : p, 5);
          expect(formant * tempo).toBeCloseTo(Math.abs(t - 1) < 0.001 ? 1 : t, 5);
        },
      ),
    );
  });

  it('refuses ratios out of range', () => {
    expect(() => voiceTransformFilter({ pitchRatio: 0.49, formantRatio: 1 }, 16_000)).toThrow(RangeError);
    expect(() => voiceTransformFilter({ pitchRatio: 1, formantRatio: 2.01 }, 16_000)).toThrow('formantRatio');
    expect(() =>
      voiceTransformFilter({ pitchRatio: 1, formantRatio: 1, tempoRatio: Number.NaN }, 16_000),
    ).toThrow('tempoRatio');
  });
});

/** Where the loudest sample is, within `reach` of `around`. */
function peakNear(samples: Int16Array, around: number, reach: number): number {
  let best = 0;
  let at = around;
  for (let i = Math.max(0, around - reach); i < Math.min(samples.length, around + reach); i++) {
    const level = Math.abs(samples[i] as number);
    if (level > best) {
      best = level;
      at = i;
    }
  }
  return at;
}

/** The lag (samples) at which `after`'s 1 ms level envelope best matches `before`'s, within ±50 ms. */
function envelopeLag(before: PcmAudio, after: PcmAudio): number {
  const hop = Math.round(before.sampleRate / 1000);
  const envelope = (s: Int16Array) => {
    const out: number[] = [];
    for (let at = 0; at + 4 * hop <= s.length; at += hop) {
      let sum = 0;
      for (let i = at; i < at + 4 * hop; i++) sum += Math.abs(s[i] as number);
      out.push(sum);
    }
    return out;
  };
  const a = envelope(before.samples);
  const b = envelope(after.samples);
  let best = { score: Number.NEGATIVE_INFINITY, lag: 0 };
  for (let lag = -50; lag <= 50; lag++) {
    let score = 0;
    for (let i = 50; i < a.length - 50; i++)
      score += (a[i] as number) * ((b[i + lag] as number | undefined) ?? 0);
    if (score > best.score) best = { score, lag };
  }
  return best.lag * hop;
}

describe('transformVoice', () => {
  let slt: PcmAudio;
  let awb: PcmAudio;
  const tone16 = harmonicTone(16_000, 3, 150);
  const tone24 = harmonicTone(24_000, 3, 120);

  beforeAll(async () => {
    slt = await fliteSpeech('slt', TEN_SECONDS_OF_TEXT);
    awb = await fliteSpeech('awb', TEN_SECONDS_OF_TEXT);
  }, 60_000);

  const inputs = () => ({
    'tone 150 Hz @16k': tone16,
    'tone 120 Hz @24k': tone24,
    'flite slt': slt,
    'flite awb': awb,
  });

  it.each([0.8, 1.3])(
    'moves the pitch by %s within 5 %, keeping the length',
    async (pitchRatio) => {
      for (const [name, audio] of Object.entries(inputs())) {
        const out = await transformVoice(audio, { pitchRatio, formantRatio: 1 });
        const measured = medianPitch(out) / medianPitch(audio);
        console.info(`pitch ×${pitchRatio} on ${name}: measured ×${measured.toFixed(3)}`);
        expect(Math.abs(measured / pitchRatio - 1), name).toBeLessThan(0.05);
        expect(out.samples.length, name).toBe(audio.samples.length);
        expect(out.sampleRate, name).toBe(audio.sampleRate);
      }
    },
    30_000,
  );

  it('moves the formants by 1.15 and 0.85 without moving the pitch', async () => {
    for (const [name, audio] of Object.entries(inputs())) {
      const up = await transformVoice(audio, { pitchRatio: 1, formantRatio: 1.15 });
      const down = await transformVoice(audio, { pitchRatio: 1, formantRatio: 0.85 });
      const centroid = spectralCentroid(audio);
      const figures = {
        pitchUp: medianPitch(up) / medianPitch(audio),
        pitchDown: medianPitch(down) / medianPitch(audio),
        centroidUp: spectralCentroid(up) / centroid,
        centroidDown: spectralCentroid(down) / centroid,
        warpUp: formantWarp(audio, up),
        warpDown: formantWarp(audio, down),
      };
      console.info(
        `formants on ${name}: ${Object.entries(figures)
          .map(([k, v]) => `${k} ×${v.toFixed(3)}`)
          .join(', ')}`,
      );
      expect(Math.abs(figures.pitchUp - 1), name).toBeLessThan(0.05);
      expect(Math.abs(figures.pitchDown - 1), name).toBeLessThan(0.05);
      expect(figures.centroidUp, name).toBeGreaterThan(1.03);
      expect(figures.centroidDown, name).toBeLessThan(0.97);
      expect(Math.abs(figures.warpUp - 1.15), name).toBeLessThan(0.05);
      expect(Math.abs(figures.warpDown - 0.85), name).toBeLessThan(0.05);
      expect(up.samples.length).toBe(audio.samples.length);
    }
  }, 30_000);

  it('keeps the timing: clicks come out where they went in (within 3 ms)', async () => {
    const sampleRate = 16_000;
    const times = [0.5, 1.5, 2.25, 3, 4.5];
    const samples = new Int16Array(5 * sampleRate);
    for (const t of times) samples[t * sampleRate] = 20_000;
    const clicks = { sampleRate, channels: 1, samples };
    for (const params of [
      { pitchRatio: 0.8, formantRatio: 1 },
      { pitchRatio: 1.3, formantRatio: 1 },
      { pitchRatio: 1, formantRatio: 1.15 },
      { pitchRatio: 1.3, formantRatio: 0.85 },
      { pitchRatio: 0.7, formantRatio: 0.9, tempoRatio: 1.25 },
    ]) {
      const out = await transformVoice(clicks, params);
      const tempo = params.tempoRatio ?? 1;
      expect(out.samples.length).toBe(Math.round(samples.length / tempo));
      const offsets = times.map((t) => {
        const expected = Math.round((t * sampleRate) / tempo);
        return ((peakNear(out.samples, expected, 1600) - expected) / sampleRate) * 1000;
      });
      console.info(
        `clicks through ${JSON.stringify(params)}: ${offsets.map((ms) => ms.toFixed(1)).join(', ')} ms`,
      );
      for (const ms of offsets) expect(Math.abs(ms)).toBeLessThan(3);
    }
  }, 30_000);

  it('keeps the timing of speech (level envelopes line up within 5 ms)', async () => {
    for (const audio of [slt, awb]) {
      for (const params of [
        { pitchRatio: 0.8, formantRatio: 0.9 },
        { pitchRatio: 1.3, formantRatio: 1.15 },
      ]) {
        const lag = envelopeLag(audio, await transformVoice(audio, params));
        expect(Math.abs(lag / audio.sampleRate) * 1000).toBeLessThanOrEqual(5);
      }
    }
  }, 30_000);

  it('changes the pace with tempoRatio, pitch kept', async () => {
    const out = await transformVoice(awb, { pitchRatio: 1, formantRatio: 1, tempoRatio: 1.25 });
    expect(out.samples.length).toBe(Math.round(awb.samples.length / 1.25));
    expect(Math.abs(medianPitch(out) / medianPitch(awb) - 1)).toBeLessThan(0.05);
  });

  it('gives the input back for identity params (a copy)', async () => {
    const out = await transformVoice(slt, { pitchRatio: 1, formantRatio: 1, tempoRatio: 1 });
    expect(out.samples).not.toBe(slt.samples);
    expect(correlation(out.samples, slt.samples)).toBeCloseTo(1, 6);
  });

  it('transforms 10 s of speech in well under a second (bench figure)', async () => {
    const speech24 = await decodeToPcm(encodeWav(awb), { sampleRate: 24_000, maxSeconds: 60 });
    for (const audio of [awb, speech24]) {
      const seconds = audio.samples.length / audio.sampleRate;
      const started = performance.now();
      await transformVoice(audio, { pitchRatio: 1.2, formantRatio: 1.1 });
      const elapsed = (performance.now() - started) / 1000;
      console.info(
        `transformVoice: ${seconds.toFixed(1)} s at ${audio.sampleRate} Hz in ${elapsed.toFixed(2)} s ` +
          `(${(seconds / elapsed).toFixed(0)}× real time)`,
      );
      expect(elapsed).toBeLessThan(seconds / 4);
    }
  }, 30_000);
});
