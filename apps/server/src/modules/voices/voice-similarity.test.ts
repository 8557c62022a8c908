import { analyzeVoice } from '@parla/audio';
import type { EngineVoice } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { transformVoice } from '../../platform/media/voice-transform';
import { fliteSpeech, TEN_SECONDS_OF_TEXT } from '../../test/test-signals';
import { useWarmEnginePool } from '../../test/warm-engine-pool';
import { synthesizeSpeech } from '../tts/speech-pipeline';
import { partialShift, renditionProfile, similarityShare, timbreShift } from './speaking-voice';

/*
 * Issue 18 item 3: similarity_boost moves an own voice (clone, designed, professional) from its base
 * voice towards its profile, on every engine — measured on the audio (median pitch, spectral centre).
 */

const enginePool = useWarmEnginePool();

const TEXT =
  'The old lighthouse keeper climbed the stairs every evening. He lit the lamp and watched the ships.';

const VOICES: [string, EngineVoice][] = [
  ['Festival', { engine: 'festival', voice: 'cmu_us_slt_arctic_hts' }],
  ['Flite slt', { engine: 'flite', voice: 'slt' }],
  ['Flite rms', { engine: 'flite', voice: 'rms' }],
  ['eSpeak-NG', { engine: 'espeak', voice: 'en-us+f3' }],
];

const speak = (voice: EngineVoice, timbre: ReturnType<typeof partialShift>) =>
  synthesizeSpeech(enginePool(), {
    text: TEXT,
    voice,
    normalize: false,
    settings: { speed: 1, stability: 0.5, style: 0, useSpeakerBoost: false },
    timbre,
  });

describe('similarity_boost on an own voice', { timeout: 240_000 }, () => {
  it.each(VOICES)('moves a clone on %s towards its profile as similarity rises', async (_, voice) => {
    // A low man's voice: flite awb moved down in pitch and formants.
    const sample = await transformVoice(await fliteSpeech('awb', TEN_SECONDS_OF_TEXT), {
      pitchRatio: 0.72,
      formantRatio: 0.9,
    });
    const profile = analyzeVoice(sample);
    const shift = timbreShift(await renditionProfile(enginePool(), voice), profile);
    const distances: number[] = [];
    const centroids: number[] = [];
    for (const similarity of [0, 0.5, 1]) {
      const speech = await speak(voice, partialShift(shift, similarityShare(similarity)));
      const heard = analyzeVoice({ sampleRate: speech.sampleRate, samples: speech.samples });
      distances.push(
        Math.abs(Math.log2((heard.pitch.medianHz as number) / (profile.pitch.medianHz as number))),
      );
      centroids.push(heard.spectralEnvelope.spectralCentroidHz as number);
    }
    console.info(
      `${voice.engine}/${voice.voice} at similarity 0, 0.5, 1: ${distances.map((d) => (d * 12).toFixed(1)).join(', ')} semitones from the profile's pitch; centroid ${centroids.map((c) => c.toFixed(0)).join(', ')} Hz (formant shift ×${shift.formantRatio.toFixed(2)})`,
    );
    expect(distances[1]).toBeLessThan((distances[0] as number) - 0.05);
    expect(distances[2]).toBeLessThan(distances[1] as number);
    // Most of the way: what is left is the shift's own limit (pitch ratios stop at 0.5, eSpeak's f3 → 91 Hz).
    expect(distances[2]).toBeLessThan((distances[0] as number) * 0.3);
    // A lower voice's timbre: the spectrum's centre falls as the voice moves to it.
    expect(centroids[2]).toBeLessThan(centroids[0] as number);
  });

  it('scales the shift in log frequency: 0 none, 1 all, the default 0.75 most of it', () => {
    expect(similarityShare(0)).toBe(0);
    expect(similarityShare(1)).toBe(1);
    expect(similarityShare(0.75)).toBeCloseTo(0.9375);
    const half = partialShift({ pitchRatio: 1.44, formantRatio: 0.81, tempoRatio: 1 }, 0.5);
    expect(half.pitchRatio).toBeCloseTo(1.2);
    expect(half.formantRatio).toBeCloseTo(0.9);
  });
});
