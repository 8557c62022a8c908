import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analyzeVoice,
  formantScale,
  mergeProfiles,
  PITCH_UNAVAILABLE_MESSAGES,
  profileDistance,
  type VoiceProfile,
} from './voice-profile';

interface Voicing {
  sampleRate?: number;
  seconds?: number;
  /** Vibrato depth (fraction of F0) at 5.5 Hz. */
  vibrato?: number;
  /** F0 multiplier as a function of time: octave jumps. */
  jump?: (t: number) => number;
  /** Level envelope (0–1) as a function of time: syllables. */
  envelope?: (t: number) => number;
  /** Formant frequencies (Hz) of the resonators the source goes through. */
  formants?: number[];
}

/**
 * A glottal-pulse-like voice: every harmonic below 3.8 kHz at 1/k (a pulse train's −6 dB per octave,
 * as radiated speech has), phase-continuous under vibrato, optionally through formant resonators.
 */
function voice(f0: number, options: Voicing = {}): Float32Array {
  const { sampleRate = 16000, seconds = 3, vibrato = 0.03 } = options;
  const n = Math.round(sampleRate * seconds);
  let signal: Float64Array = new Float64Array(n);
  const harmonics = Math.floor(3800 / (f0 * (1 + vibrato)));
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate;
    const hz = f0 * (options.jump?.(t) ?? 1) * (1 + vibrato * Math.sin(2 * Math.PI * 5.5 * t));
    phase += (2 * Math.PI * hz) / sampleRate;
    let value = 0;
    for (let k = 1; k <= harmonics && k * hz < sampleRate / 2.1; k++) value += Math.sin(k * phase) / k;
    signal[i] = value * (options.envelope?.(t) ?? 1);
  }
  for (const hz of options.formants ?? []) signal = resonate(signal, hz, 50 + 0.04 * hz, sampleRate);
  let peak = 0;
  for (const v of signal) peak = Math.max(peak, Math.abs(v));
  return Float32Array.from(signal, (v) => (v / peak) * 0.5);
}

/** A two-pole resonator (one formant) at `hz` with bandwidth `bandwidth`. */
function resonate(x: Float64Array, hz: number, bandwidth: number, rate: number): Float64Array {
  const r = Math.exp((-Math.PI * bandwidth) / rate);
  const a1 = 2 * r * Math.cos((2 * Math.PI * hz) / rate);
  const a2 = -r * r;
  const y = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) y[i] = (x[i] ?? 0) + a1 * (y[i - 1] ?? 0) + a2 * (y[i - 2] ?? 0);
  return y;
}

function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Four vowels (/a/ /i/ /u/ /e/, 0.5 s each) with every formant scaled by `scale`. */
function vowels(f0: number, scale: number, sampleRate = 16000): Float32Array {
  const formants = [
    [700, 1220, 2600],
    [300, 2300, 3000],
    [350, 900, 2300],
    [500, 1700, 2500],
  ];
  return concat(
    formants.map((f) => voice(f0, { sampleRate, seconds: 0.5, formants: f.map((hz) => hz * scale) })),
  );
}

function noise(seconds: number, sampleRate = 16000): Float32Array {
  let seed = 12345;
  return Float32Array.from({ length: seconds * sampleRate }, () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed / 2147483648) * 0.6 - 0.3;
  });
}

const analyze = (samples: Float32Array | Int16Array, sampleRate = 16000) =>
  analyzeVoice({ sampleRate, samples });
const medianOf = (profile: VoiceProfile) => profile.pitch.medianHz ?? Number.NaN;

describe('analyzeVoice: pitch', () => {
  it.each([110, 180, 240])('finds the median of a %i Hz voice with vibrato within 2 percent', (f0) => {
    const { pitch } = analyze(voice(f0));
    expect(Math.abs((pitch.medianHz ?? 0) / f0 - 1)).toBeLessThan(0.02);
    expect(pitch.unavailable).toBeNull();
    // ±3% vibrato: the 10th and 90th percentiles sit inside it, on either side of the median.
    expect(pitch.p10Hz).toBeGreaterThan(f0 * 0.96);
    expect(pitch.p10Hz).toBeLessThan(f0 * 0.99);
    expect(pitch.p90Hz).toBeGreaterThan(f0 * 1.01);
    expect(pitch.p90Hz).toBeLessThan(f0 * 1.04);
    expect(pitch.voicedShare).toBeGreaterThan(0.95);
  });

  it('covers 50–500 Hz', () => {
    for (const f0 of [55, 480]) expect(medianOf(analyze(voice(f0))) / f0).toBeCloseTo(1, 1);
  });

  it('gives the same pitch and envelope at every accepted sample rate', () => {
    const reference = analyze(voice(180));
    for (const sampleRate of [8000, 11025, 22050, 44100, 48000]) {
      const profile = analyze(voice(180, { sampleRate }), sampleRate);
      expect(Math.abs(medianOf(profile) / medianOf(reference) - 1)).toBeLessThan(0.01);
      expect(profileDistance(profile, reference)).toBeLessThan(0.1);
    }
  });

  it('reports no pitch, with the reason, for silence', () => {
    const profile = analyze(new Int16Array(32000));
    expect(profile.pitch).toMatchObject({
      medianHz: null,
      p10Hz: null,
      p90Hz: null,
      unavailable: 'no-speech',
    });
    expect(PITCH_UNAVAILABLE_MESSAGES[profile.pitch.unavailable ?? 'no-speech']).toMatch(/No speech found/);
    expect(profile).toMatchObject({ speechSeconds: 0, speakingRate: null, loudness: { rmsDbfs: null } });
    expect(profile.spectralEnvelope).toEqual({
      melBandsDb: null,
      spectralCentroidHz: null,
      formantsHz: null,
    });
    expect(analyze(new Float32Array(10)).pitch.unavailable).toBe('no-speech');
  });

  it('reports no voiced speech for white noise and for too short a voice', () => {
    const noisy = analyze(noise(5));
    expect(noisy.speechSeconds).toBeGreaterThan(4.5);
    expect(noisy.pitch).toMatchObject({ medianHz: null, unavailable: 'no-voiced-speech' });
    expect(noisy.pitch.voicedShare).toBeLessThan(0.05);
    expect(PITCH_UNAVAILABLE_MESSAGES['no-voiced-speech']).toMatch(/No voiced speech found/);
    // 0.15 s of voice is fewer than 20 voiced frames.
    const short = analyze(concat([voice(150, { seconds: 0.15 }), new Float32Array(16000)]));
    expect(short.pitch.unavailable).toBe('no-voiced-speech');
    expect(short.pitch.voicedFrames).toBeLessThan(20);
  });

  it.each([
    ['up', 2],
    ['down', 0.5],
  ])('ignores octave jumps (%s) in a fifth of the frames', (_, factor) => {
    // 60 ms of every 300 ms an octave away: kept, they would put the 90th (or 10th) percentile there.
    const jump = (t: number) => (t % 0.3 < 0.06 ? factor : 1);
    const { pitch } = analyze(voice(150, { jump }));
    expect(Math.abs((pitch.medianHz ?? 0) / 150 - 1)).toBeLessThan(0.02);
    expect(pitch.p90Hz).toBeLessThan(150 * 1.06);
    expect(pitch.p10Hz).toBeGreaterThan(150 * 0.94);
    expect(pitch.voicedShare).toBeLessThan(0.9);
  });

  it('rejects sample rates outside 8–48 kHz', () => {
    expect(() => analyzeVoice({ sampleRate: 6000, samples: new Int16Array(100) })).toThrow(RangeError);
    expect(() => analyzeVoice({ sampleRate: 96000, samples: new Int16Array(100) })).toThrow(RangeError);
  });

  it('analyses 60 s at 16 kHz in well under a second', () => {
    const second = voice(150, { seconds: 1 });
    const minute = concat(Array.from({ length: 60 }, () => second));
    analyze(minute.subarray(0, 16000 * 5)); // warm up the JIT
    const started = performance.now();
    const profile = analyze(minute);
    const elapsed = performance.now() - started;
    expect(profile.speechSeconds).toBeGreaterThan(59);
    expect(elapsed).toBeLessThan(1000);
  });
});

describe('analyzeVoice: rate, loudness and envelope', () => {
  it('counts syllable nuclei per second of speech', () => {
    // Four level peaks a second, 8 dB deep: four syllables a second.
    const envelope = (t: number) => 0.4 + 0.6 * Math.sin(Math.PI * 4 * t) ** 2;
    const profile = analyze(voice(140, { seconds: 5, envelope, vibrato: 0.01 }));
    expect(profile.speechSeconds).toBeGreaterThan(4.9);
    expect(profile.speakingRate).toBeGreaterThan(4 * 0.9);
    expect(profile.speakingRate).toBeLessThan(4 * 1.1);
  });

  it('measures loudness in dBFS over the speech only', () => {
    const sine = Int16Array.from({ length: 32000 }, (_, i) =>
      Math.round(16384 * Math.sin((2 * Math.PI * 200 * i) / 16000)),
    );
    const withPause = new Int16Array(64000);
    withPause.set(sine, 16000);
    const { loudness, speechSeconds } = analyze(withPause);
    expect(speechSeconds).toBeCloseTo(2, 1);
    // Half scale is −6.02 dBFS and a sine's RMS 3.01 dB below its peak; the frames at the edges lower it a little.
    expect(Math.abs((loudness.rmsDbfs ?? 0) + 9.03)).toBeLessThan(0.2);
    expect(loudness.peakDbfs).toBeCloseTo(-6.02, 1);
  });

  it.each([100, 120, 200])('estimates a formant scale of 1.15 within 5 percent at F0 %i Hz', (f0) => {
    const plain = analyze(vowels(f0, 1));
    const scaled = analyze(vowels(f0, 1.15));
    expect(plain.spectralEnvelope.formantsHz).not.toBeNull();
    expect(Math.abs(formantScale(plain, scaled) / 1.15 - 1)).toBeLessThan(0.05);
    expect(Math.abs(formantScale(scaled, plain) * 1.15 - 1)).toBeLessThan(0.05);
    expect(formantScale(plain, plain)).toBe(1);
  });

  it('keeps the formant scale within 0.8–1.25 and falls back to the centroid', () => {
    const low = analyze(vowels(120, 0.85));
    const high = analyze(vowels(120, 1.2));
    expect(formantScale(low, high)).toBe(1.25);
    expect(formantScale(high, low)).toBe(0.8);
    const noFormants = (p: VoiceProfile): VoiceProfile => ({
      ...p,
      spectralEnvelope: { ...p.spectralEnvelope, formantsHz: null },
    });
    const plain = analyze(vowels(120, 1));
    const scaled = analyze(vowels(120, 1.1));
    const byCentroid = formantScale(noFormants(plain), scaled);
    expect(byCentroid).toBeCloseTo(
      (scaled.spectralEnvelope.spectralCentroidHz ?? 0) / (plain.spectralEnvelope.spectralCentroidHz ?? 1),
      10,
    );
    expect(byCentroid).toBeGreaterThan(1.03);
  });

  it('describes the envelope in 24 mel bands relative to their mean', () => {
    const { spectralEnvelope } = analyze(vowels(120, 1));
    expect(spectralEnvelope.melBandsDb).toHaveLength(24);
    const bands = spectralEnvelope.melBandsDb ?? [];
    expect(bands.reduce((s, b) => s + b, 0)).toBeCloseTo(0, 6);
    // Louder or quieter, the shape is the same.
    const quieter = analyze(vowels(120, 1).map((v) => v * 0.1));
    expect(profileDistance(quieter, analyze(vowels(120, 1)))).toBeLessThan(1e-3);
  });
});

describe('profileDistance', () => {
  const voices = [110, 180, 240].map((f0) => analyze(voice(f0)));
  const [low, middle, high] = voices as [VoiceProfile, VoiceProfile, VoiceProfile];

  it('grows with the pitch difference of real analyses', () => {
    expect(profileDistance(low, low)).toBe(0);
    expect(profileDistance(low, middle)).toBeGreaterThan(0.5);
    expect(profileDistance(low, high)).toBeGreaterThan(profileDistance(low, middle));
    expect(profileDistance(middle, high)).toBeLessThan(profileDistance(low, high));
  });

  const withPitch = (p: VoiceProfile, ratio: number, bandShift: number[]): VoiceProfile => ({
    ...p,
    pitch: { ...p.pitch, medianHz: medianOf(p) * ratio } as VoiceProfile['pitch'],
    spectralEnvelope: {
      ...p.spectralEnvelope,
      melBandsDb: (p.spectralEnvelope.melBandsDb ?? []).map((b, i) => b + (bandShift[i] ?? 0)),
    },
  });
  const ratio = fc.double({ min: 0.5, max: 2, noNaN: true });
  const shift = fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 24, maxLength: 24 });

  it('is 0 for a profile and itself, and symmetric', () => {
    fc.assert(
      fc.property(ratio, shift, ratio, shift, (r1, s1, r2, s2) => {
        const a = withPitch(middle, r1, s1);
        const b = withPitch(middle, r2, s2);
        expect(profileDistance(a, a)).toBe(0);
        expect(profileDistance(a, b)).toBeCloseTo(profileDistance(b, a), 12);
        expect(profileDistance(a, b)).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('grows with the pitch difference, whatever the envelope', () => {
    fc.assert(
      fc.property(
        shift,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (s, x, y) => {
          const [near, far] = x < y ? [x, y] : [y, x];
          const other = withPitch(middle, 1, s);
          const d = (octaves: number) => profileDistance(middle, withPitch(other, 2 ** octaves, []));
          expect(d(far)).toBeGreaterThanOrEqual(d(near));
          expect(d(-far)).toBeGreaterThanOrEqual(d(-near));
        },
      ),
    );
  });

  it('counts a measurement missing on one side as one unit', () => {
    const silent = analyze(new Int16Array(16000));
    expect(profileDistance(silent, silent)).toBe(0);
    expect(profileDistance(middle, silent)).toBe(2);
  });
});

describe('mergeProfiles', () => {
  const low = analyze(voice(110, { seconds: 3 }));
  const high = analyze(voice(240, { seconds: 1 }));

  it('is the identity for one profile and adds the seconds for copies', () => {
    const merged = mergeProfiles([low, low]);
    expect(merged.speechSeconds).toBeCloseTo(2 * low.speechSeconds, 9);
    expect(merged.pitch.medianHz).toBeCloseTo(medianOf(low), 9);
    expect(merged.pitch.voicedFrames).toBe(2 * low.pitch.voicedFrames);
    expect(merged.speakingRate).toBeCloseTo(low.speakingRate ?? 0, 9);
    expect(merged.loudness.rmsDbfs).toBeCloseTo(low.loudness.rmsDbfs ?? 0, 9);
    expect(profileDistance(merged, low)).toBeLessThan(1e-9);
    expect(mergeProfiles([low]).pitch.p90Hz).toBeCloseTo(low.pitch.p90Hz ?? 0, 9);
  });

  it('weights by speech seconds, or by the weights given', () => {
    const logMean = (wLow: number, wHigh: number) =>
      2 ** ((wLow * Math.log2(medianOf(low)) + wHigh * Math.log2(medianOf(high))) / (wLow + wHigh));
    const bySeconds = mergeProfiles([low, high]);
    expect(bySeconds.pitch.medianHz).toBeCloseTo(logMean(low.speechSeconds, high.speechSeconds), 0);
    expect(medianOf(bySeconds)).toBeLessThan(Math.sqrt(110 * 240));
    const equal = mergeProfiles([low, high], [1, 1]);
    expect(medianOf(equal)).toBeCloseTo(Math.sqrt(medianOf(low) * medianOf(high)), 0);
    expect(() => mergeProfiles([])).toThrow(RangeError);
    expect(() => mergeProfiles([low], [1, 2])).toThrow(RangeError);
  });

  it('takes the pitch from the samples that have one', () => {
    const merged = mergeProfiles([low, analyze(noise(2)), analyze(new Int16Array(16000))]);
    expect(merged.pitch.medianHz).toBeCloseTo(medianOf(low), 9);
    expect(merged.pitch.voicedShare).toBeLessThan(low.pitch.voicedShare);
    const none = mergeProfiles([analyze(noise(2))]);
    expect(none.pitch.unavailable).toBe('no-voiced-speech');
    expect(mergeProfiles([analyze(new Int16Array(16000))]).pitch.unavailable).toBe('no-speech');
  });
});
