import { YIN } from 'pitchfinder';
import { describe, expect, it } from 'vitest';
import { useESpeakSpeech } from './test/espeak-speech';
import {
  analyzeVoice,
  formantScale,
  mergeProfiles,
  profileDistance,
  timbreDistance,
  type VoiceAudio,
} from './voice-profile';

/*
 * Real speech: eSpeak-NG (the engine the voices feature clones onto) at several pitch settings, measured
 * by analyzeVoice and, independently, by pitchfinder's YIN with plain settings. About 1.5 s in all.
 */

/** 40 syllables. */
const MEETING =
  "The meeting has been moved to Thursday afternoon at three o'clock. Please bring the quarterly report and your notes from the last review, so that we can finish early.";
/** A captcha sentence (pvc-verification.service.ts). */
const CAPTCHA = 'The children built a small boat out of cardboard and sailed it on the pond.';
const RIVER =
  'A quiet river runs below the old stone bridge, where children gather every summer evening to watch the boats drift slowly home.';

const speakWith = useESpeakSpeech();
/** This file's readings: eSpeak at 175 words a minute, the pitch asked. */
const speak = (voice: string, pitch: number, text = MEETING) => speakWith(voice, text, { rate: 175, pitch });

/** The research probe's measurement: YIN with its default settings on 2048-sample frames every 1024. */
function plainYinMedian({ sampleRate, samples }: VoiceAudio & { samples: Int16Array }): number {
  const detect = YIN({ sampleRate });
  const floats = Float32Array.from(samples, (s) => s / 32768);
  const found: number[] = [];
  for (let start = 0; start + 2048 <= floats.length; start += 1024) {
    const hz = detect(floats.subarray(start, start + 2048));
    if (hz !== null && hz >= 50 && hz <= 500) found.push(hz);
  }
  found.sort((a, b) => a - b);
  return found[found.length >> 1] ?? Number.NaN;
}

describe('analyzeVoice on eSpeak-NG speech', () => {
  it('orders three pitch settings and agrees with plain YIN within 15%', () => {
    const medians = [20, 50, 80].map((pitch) => {
      const audio = speak('en-us', pitch);
      const { pitch: measured } = analyzeVoice(audio);
      const reference = plainYinMedian(audio);
      expect(measured.unavailable).toBeNull();
      expect(Math.abs((measured.medianHz ?? 0) / reference - 1)).toBeLessThan(0.15);
      expect(measured.p10Hz).toBeLessThan(measured.medianHz ?? 0);
      expect(measured.p90Hz).toBeGreaterThan(measured.medianHz ?? 0);
      return measured.medianHz ?? 0;
    });
    expect(medians[0]).toBeLessThan(medians[1] ?? 0);
    expect(medians[1]).toBeLessThan(medians[2] ?? 0);
    // The research probe measured 137.5 Hz at pitch 80 (engines-feasibility §1b).
    expect(Math.abs((medians[2] ?? 0) / 137.5 - 1)).toBeLessThan(0.15);
  });

  it('counts syllables within 25% of the text’s', () => {
    const profile = analyzeVoice(speak('en-us', 50));
    const expected = 40 / profile.speechSeconds;
    expect(Math.abs((profile.speakingRate ?? 0) / expected - 1)).toBeLessThan(0.25);
  });

  it('finds the formant shift of eSpeak’s female3 variant', () => {
    const plain = analyzeVoice(speak('en-us', 50));
    const female = analyzeVoice(speak('en-us+f3', 50));
    // The variant file sets F2 to 135% − 250 Hz and F3 to 125%.
    const [, f2 = 0] = plain.spectralEnvelope.formantsHz ?? [];
    const expected = Math.sqrt((1.35 - 250 / f2) * 1.25);
    expect(Math.abs(formantScale(plain, female) / expected - 1)).toBeLessThan(0.08);
    expect(female.pitch.medianHz).toBeGreaterThan(1.8 * (plain.pitch.medianHz ?? 0));
  });

  it('finds one voice saying two texts closer than two voices saying one', () => {
    const meeting = analyzeVoice(speak('en-us', 50));
    const river = analyzeVoice(speak('en-us', 50, RIVER));
    const higher = analyzeVoice(speak('en-us', 80));
    const female = analyzeVoice(speak('en-us+f3', 50));
    expect(profileDistance(meeting, river)).toBeLessThan(0.5);
    expect(profileDistance(meeting, higher)).toBeGreaterThan(profileDistance(meeting, river) * 2);
    expect(profileDistance(meeting, female)).toBeGreaterThan(profileDistance(meeting, higher));
    const merged = mergeProfiles([meeting, river]);
    expect(profileDistance(merged, meeting)).toBeLessThan(profileDistance(meeting, river));
  });

  it('tells one voice reading another text from other voices by timbreDistance (issue 26 item 7)', () => {
    const samples = mergeProfiles([
      analyzeVoice(speak('en-us', 50)),
      analyzeVoice(speak('en-us', 50, RIVER)),
    ]);
    expect(samples.cepstrum?.frames).toBeGreaterThan(300);
    const reading = analyzeVoice(speak('en-us', 50, CAPTCHA));
    const same = timbreDistance(reading, samples) ?? Number.NaN;
    expect(same).toBeLessThan(1.1);
    // The same voice 3 semitones higher, its Klatt synthesis, its female variant.
    const others = [
      speak('en-us', 70, CAPTCHA),
      speak('en-us+klatt', 50, CAPTCHA),
      speak('en-us+f3', 50, CAPTCHA),
    ];
    for (const other of others) expect(timbreDistance(analyzeVoice(other), samples)).toBeGreaterThan(1.5);
    // A profile measured before the cepstral statistics existed, or with too little voicing: no answer.
    const { cepstrum: _cepstrum, ...older } = samples;
    expect(timbreDistance(reading, older)).toBeNull();
    expect(timbreDistance(analyzeVoice(speak('en-us', 50, 'Yes.')), samples)).toBeNull();
  }, 20_000);

  it('keeps the median pitch in noise (10 dB SNR)', () => {
    const clean = speak('en-us', 50);
    let power = 0;
    for (let i = 0; i < clean.samples.length; i++) power += (clean.samples[i] ?? 0) ** 2;
    const amplitude = Math.sqrt((3 * power) / clean.samples.length) / 10 ** (10 / 20);
    let seed = 7;
    const noisy = Int16Array.from(clean.samples, (s) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.max(-32768, Math.min(32767, s + ((seed / 2147483648) * 2 - 1) * amplitude));
    });
    const a = analyzeVoice(clean).pitch.medianHz ?? 0;
    const b = analyzeVoice({ sampleRate: clean.sampleRate, samples: noisy }).pitch.medianHz ?? 0;
    expect(Math.abs(b / a - 1)).toBeLessThan(0.05);
  });

  it('analyses a minute of speech in well under a second', () => {
    const { sampleRate, samples: clip } = speak('en-us', 50, `${MEETING} ${RIVER}`);
    const minute = new Int16Array(60 * sampleRate);
    for (let offset = 0; offset < minute.length; offset += clip.length) {
      minute.set(clip.subarray(0, Math.min(clip.length, minute.length - offset)), offset);
    }
    analyzeVoice({ sampleRate, samples: clip }); // warm up the JIT
    const started = performance.now();
    const profile = analyzeVoice({ sampleRate, samples: minute });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(profile.speechSeconds).toBeGreaterThan(40);
  });
});
