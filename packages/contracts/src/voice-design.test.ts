import { describe, expect, it } from 'vitest';
import { describeVoice } from './voice-design';

describe('describeVoice', () => {
  it('reads gender, age, accent, pitch, pace and timbre', () => {
    const traits = describeVoice('A deep, slow male voice of an old British storyteller by the fire.');
    expect(traits).toMatchObject({ gender: 'male', age: 'old', language: 'en', accent: 'british' });
    expect(traits.pitch).toBeLessThan(0.85);
    expect(traits.pace).toBeLessThan(0.9);
    expect(traits.understood).toEqual(expect.arrayContaining(['male', 'old', 'deep', 'slow', 'british']));
  });

  it('takes the first gender word, and does not read "woman" as "man" or "the" as "he"', () => {
    expect(describeVoice('A young woman who talks to the man next door').gender).toBe('female');
    expect(describeVoice('The narrator of the story, calm and warm').gender).toBeUndefined();
  });

  it('reads "older" and "younger" as ages (an "older woman" was read without her age)', () => {
    expect(describeVoice('A warm, calm older woman with a British accent').age).toBe('old');
    expect(describeVoice('A younger man, bright and quick').age).toBe('young');
  });

  it('maps languages, and keeps the multiples in range however many words push them', () => {
    expect(describeVoice('A cheerful Spanish radio host').language).toBe('es');
    const extreme = describeVoice(
      'deep deeper lower bass baritone booming slow calm relaxed large giant warm old',
    );
    expect(extreme.pitch).toBeGreaterThanOrEqual(0.7);
    expect(extreme.formant).toBeGreaterThanOrEqual(0.85);
    expect(extreme.pace).toBeGreaterThanOrEqual(0.8);
    expect(describeVoice('nothing known here at all').understood).toEqual([]);
  });
});
