import { beforeAll, describe, expect, it } from 'vitest';
import { ALIGNMENT_SENTENCES, knownSpeech } from '../../test/alignment-test-speech';
import { whiteNoise } from '../../test/test-signals';
import { detectAudioEvents } from './audio-events';

const RATE = 16_000;
const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

/** Notes of a simple synth (four harmonics, 10 ms attack, exponential decay), one after another. */
function synth(notes: readonly (readonly number[])[], noteSeconds: number, level = 0.2): Float32Array {
  const perNote = Math.round(noteSeconds * RATE);
  const out = new Float32Array(notes.length * perNote);
  notes.forEach((chord, n) => {
    for (let i = 0; i < perNote; i++) {
      const t = i / RATE;
      const envelope = Math.min(1, t / 0.01) * Math.exp(-1.5 * t);
      let v = 0;
      for (const midi of chord)
        for (let h = 1; h <= 4; h++) v += Math.sin(2 * Math.PI * hz(midi) * h * t) / h;
      out[n * perNote + i] = (level * envelope * v) / chord.length;
    }
  });
  return out;
}

const CHORDS = [
  [60, 64, 67],
  [57, 60, 64],
  [65, 69, 72],
  [67, 71, 74],
] as const; // C, Am, F, G
const MELODY = [[72], [74], [76], [72], [79], [77], [76], [74]] as const;
const noise = (seconds: number, level: number) =>
  Float32Array.from(whiteNoise(seconds * RATE, 7), (v) => v * level);
/** Brown-ish noise (integrated white noise, leaky): a rumble with a falling spectrum, no tones. */
const rumble = (seconds: number) => {
  const white = whiteNoise(seconds * RATE, 11);
  const out = new Float32Array(white.length);
  let y = 0;
  for (let i = 0; i < white.length; i++) {
    y = 0.98 * y + 0.02 * (white[i] as number);
    out[i] = y * 2;
  }
  return out;
};
const concat = (...parts: Float32Array[]) => {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

let speech: Float32Array;
/** Speech of three voices (a woman's, a man's, Festival's smoother HTS voice). */
let voices: Float32Array[];
beforeAll(async () => {
  speech = (await knownSpeech('flite-slt', ALIGNMENT_SENTENCES[0])).samples;
  voices = [
    speech,
    (await knownSpeech('flite-kal16', ALIGNMENT_SENTENCES[2])).samples,
    (await knownSpeech('festival-slt', ALIGNMENT_SENTENCES[4])).samples,
  ];
}, 60_000);

describe('detectAudioEvents', () => {
  it('reports music for chords and for a melody', () => {
    for (const music of [synth(CHORDS, 1), synth(MELODY, 0.4)]) {
      const events = detectAudioEvents(music, []);
      expect(events).toHaveLength(1);
      expect(events[0]?.label).toBe('music');
      expect((events[0]?.end ?? 0) - (events[0]?.start ?? 0)).toBeGreaterThan((music.length / RATE) * 0.7);
    }
  });

  it('reports nothing for silence, white noise, a rumble or speech', () => {
    expect(detectAudioEvents(new Float32Array(5 * RATE), [])).toEqual([]);
    expect(detectAudioEvents(noise(5, 0.1), [])).toEqual([]);
    expect(detectAudioEvents(rumble(5), [])).toEqual([]);
    // Speech that the voice-activity split missed (passed as no speech) is not music either.
    for (const voice of voices) expect(detectAudioEvents(voice, [])).toEqual([]);
  });

  it('looks only outside speech: music between two sentences is found where it plays', () => {
    const music = synth(CHORDS, 0.75);
    const audio = concat(speech, music, speech);
    const first = speech.length / RATE;
    const second = first + music.length / RATE;
    const events = detectAudioEvents(audio, [
      { start: 0, end: first },
      { start: second, end: audio.length / RATE },
    ]);
    expect(events).toHaveLength(1);
    expect(events[0]?.start).toBeGreaterThanOrEqual(first);
    expect(events[0]?.end).toBeLessThanOrEqual(second + 0.001);
    // The same music inside a speech segment is not looked at.
    expect(detectAudioEvents(audio, [{ start: 0, end: audio.length / RATE }])).toEqual([]);
  });

  it('finds no music in music too short (under 1 s) or under noise as loud as it', () => {
    expect(detectAudioEvents(synth([[60, 64, 67]], 0.6), [])).toEqual([]);
    const music = synth(CHORDS, 1, 0.1);
    const loud = noise(4, 0.3);
    expect(
      detectAudioEvents(
        music.map((v, i) => v + (loud[i] ?? 0)),
        [],
      ),
    ).toEqual([]);
  });
});
