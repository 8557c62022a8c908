import { findUtterances, type PcmAudio, separateSpeakers, visualWaveform } from '@parla/audio';
import { beforeAll, describe, expect, it } from 'vitest';
import { transformVoice } from '../../platform/media/voice-transform';
import { fliteSpeech, joinWithPauses } from '../../test/test-signals';

let man: PcmAudio;
let woman: PcmAudio;
beforeAll(async () => {
  man = await transformVoice(
    await fliteSpeech('awb', 'The harbour was quiet when the boats came home at dawn.'),
    {
      pitchRatio: 0.8,
      formantRatio: 0.95,
    },
  );
  woman = await transformVoice(
    await fliteSpeech('slt', 'I bought fresh bread and a coffee from the kiosk by the pier.'),
    {
      pitchRatio: 1.2,
      formantRatio: 1.05,
    },
  );
}, 30_000);

describe('separateSpeakers', () => {
  it('finds two speakers in a conversation, with the time each speaks', () => {
    const talk = joinWithPauses(man, woman, man);
    const speakers = separateSpeakers(talk);
    expect(speakers).toHaveLength(2);
    const [first, second] = speakers;
    const seconds = (p: PcmAudio) => p.samples.length / p.sampleRate;
    // The man speaks twice: he is speaker_0, and every utterance of his lies within his two turns.
    expect(first?.speakerId).toBe('speaker_0');
    expect(first?.durationSecs).toBeGreaterThan(seconds(man) * 1.5);
    expect(second?.durationSecs).toBeGreaterThan(seconds(woman) * 0.6);
    const womanFrom = seconds(man) + 0.5;
    const womanTo = womanFrom + seconds(woman);
    for (const u of second?.utterances ?? []) {
      expect(u.start).toBeGreaterThanOrEqual(womanFrom - 0.1);
      expect(u.end).toBeLessThanOrEqual(womanTo + 0.1);
    }
    expect((first?.profile.pitch.medianHz ?? 0) < (second?.profile.pitch.medianHz ?? 0)).toBe(true);
  });

  it('finds one speaker in a monologue, and none in silence', () => {
    expect(separateSpeakers(joinWithPauses(man, man))).toHaveLength(1);
    expect(separateSpeakers({ sampleRate: 16_000, samples: new Int16Array(32_000) })).toEqual([]);
  });

  it('cuts utterances at pauses and at most 3 s', () => {
    const utterances = findUtterances(joinWithPauses(man, woman));
    expect(utterances.length).toBeGreaterThanOrEqual(2);
    for (const u of utterances) expect(u.end - u.start).toBeLessThanOrEqual(3.0001);
  });

  it('draws a waveform of peaks between 0 and 1', () => {
    const points = visualWaveform(man, 50);
    expect(points).toHaveLength(50);
    expect(Math.max(...points)).toBeGreaterThan(0.1);
    expect(points.every((p) => p >= 0 && p <= 1)).toBe(true);
  });
});
