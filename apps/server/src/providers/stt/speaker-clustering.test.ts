import { speakerDistance } from '@parla/audio';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALIGNMENT_SENTENCES, knownSpeech } from '../../test/alignment-test-speech';
import {
  clusterSpeakers,
  fillUnprofiledSpeakers,
  profileSegment,
  thresholdDistance,
  type VoiceProfile,
} from './speaker-clustering';

// A dialogue: a man (flite kal16, ~102 Hz) and a woman (flite slt, ~164 Hz) take turns, a sentence each.
const TURNS = ['kal16', 'slt', 'kal16', 'slt', 'kal16'] as const;
let dialogue: (VoiceProfile | undefined)[];
let festivalSlt: VoiceProfile | undefined;

beforeAll(async () => {
  dialogue = [];
  for (const [i, voice] of TURNS.entries()) {
    const speech = await knownSpeech(`flite-${voice}`, ALIGNMENT_SENTENCES[i] as string);
    dialogue.push(profileSegment(speech.samples));
  }
  festivalSlt = profileSegment((await knownSpeech('festival-slt', ALIGNMENT_SENTENCES[1])).samples);
}, 120_000);

describe('speaker clustering', () => {
  it('tells a man from a woman in a dialogue; the one who speaks first is speaker_0', () => {
    const speakers = clusterSpeakers(dialogue, {});
    expect(speakers).toEqual(['speaker_0', 'speaker_1', 'speaker_0', 'speaker_1', 'speaker_0']);
    const man = dialogue[0] as VoiceProfile;
    const woman = dialogue[1] as VoiceProfile;
    console.log(
      `distance man–woman ${speakerDistance(man, woman).toFixed(2)}, man–man ${speakerDistance(man, dialogue[2] as VoiceProfile).toFixed(2)}, ` +
        `woman–woman ${speakerDistance(woman, dialogue[3] as VoiceProfile).toFixed(2)}, flite slt–festival slt ${speakerDistance(woman, festivalSlt as VoiceProfile).toFixed(2)}`,
    );
  });

  it('numbers speakers in the order they first speak, not by how much they are heard (issue 26 item 7)', () => {
    // The woman speaks first, once; the man three times after her: she is speaker_0 all the same.
    const womanFirst = [dialogue[1], dialogue[0], dialogue[2], dialogue[4]];
    expect(clusterSpeakers(womanFirst, {})).toEqual(['speaker_0', 'speaker_1', 'speaker_1', 'speaker_1']);
    // A first segment without a profile does not count as speaking first.
    expect(clusterSpeakers([undefined, dialogue[3], dialogue[0], dialogue[1]], {})).toEqual([
      undefined,
      'speaker_0',
      'speaker_1',
      'speaker_0',
    ]);
  });

  it('gives a segment without a profile the speaker next to it', () => {
    expect(fillUnprofiledSpeakers([undefined, 'speaker_0', undefined, 'speaker_1', undefined])).toEqual([
      'speaker_0',
      'speaker_0',
      'speaker_0',
      'speaker_1',
      'speaker_1',
    ]);
    expect(fillUnprofiledSpeakers([undefined, undefined])).toEqual(['speaker_0', 'speaker_0']);
    expect(fillUnprofiledSpeakers([])).toEqual([]);
  });

  it('caps the speakers at num_speakers and finds one voice once', () => {
    expect(new Set(clusterSpeakers(dialogue, { numSpeakers: 1 }))).toEqual(new Set(['speaker_0']));
    const one = [dialogue[0], dialogue[2], dialogue[4]];
    expect(clusterSpeakers(one, {})).toEqual(['speaker_0', 'speaker_0', 'speaker_0']);
  });

  it('keeps its limit: two similar voices (the flite and Festival renditions of slt) are one speaker', () => {
    expect(clusterSpeakers([dialogue[1], festivalSlt], {})).toEqual(['speaker_0', 'speaker_0']);
  });

  it('gives no speaker to a segment without voiced speech, and maps the public threshold onto distances', () => {
    expect(profileSegment(new Float32Array(16_000))).toBeUndefined();
    expect(profileSegment(new Float32Array(0))).toBeUndefined();
    expect(clusterSpeakers([undefined, dialogue[0], undefined], {})).toEqual([
      undefined,
      'speaker_0',
      undefined,
    ]);
    expect(clusterSpeakers([], {})).toEqual([]);
    expect(thresholdDistance(0.1)).toBeLessThan(thresholdDistance(0.22));
    expect(thresholdDistance(0.22)).toBeLessThan(thresholdDistance(0.4));
    expect(thresholdDistance(5)).toBe(thresholdDistance(0.4));
    // A higher threshold merges more: at 0.4 the man and the woman stay apart only if far enough.
    const apart = speakerDistance(dialogue[0] as VoiceProfile, dialogue[1] as VoiceProfile);
    expect(new Set(clusterSpeakers(dialogue, { threshold: 0.4 })).size).toBe(
      apart > thresholdDistance(0.4) ? 2 : 1,
    );
  });
});
