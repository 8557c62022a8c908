import type { CharacterAlignment } from '@parla/audio';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DialogueTimeline, joinChunks, type SpokenLine } from './dialogue.timeline';

/** A line of `text` lasting `seconds` at `rate`, its characters evenly spread over it. */
function spoken(text: string, seconds: number, voiceId = 'v', rate = 1000): SpokenLine {
  const characters = [...text];
  const step = seconds / Math.max(1, characters.length);
  const alignment: CharacterAlignment = {
    characters,
    character_start_times_seconds: characters.map((_, i) => Math.round(i * step * 1000) / 1000),
    character_end_times_seconds: characters.map((_, i) => Math.round((i + 1) * step * 1000) / 1000),
  };
  return {
    voiceId,
    samples: new Int16Array(Math.round(seconds * rate)).fill(1),
    alignment,
    normalizedAlignment: alignment,
  };
}

describe('DialogueTimeline', () => {
  it('lays two lines end to end with a pause, "\\n" between them, and a segment per line', () => {
    const timeline = new DialogueTimeline(1000, 250);
    const a = timeline.add(spoken('Hi', 1, 'A'), 0);
    const b = timeline.add(spoken('Yo!', 0.5, 'B'), 1);
    const whole = joinChunks([a, b]);
    expect(whole.samples.length).toBe(1000 + 250 + 500);
    // The pause is silence.
    expect(whole.samples.slice(1000, 1250).every((s) => s === 0)).toBe(true);
    expect(whole.alignment.characters.join('')).toBe('Hi\nYo!');
    expect(whole.alignment.character_start_times_seconds).toEqual([0, 0.5, 1, 1.25, 1.417, 1.583]);
    expect(whole.alignment.character_end_times_seconds[2]).toBe(1.25);
    expect(whole.voiceSegments).toEqual([
      {
        voice_id: 'A',
        start_time_seconds: 0,
        end_time_seconds: 1,
        character_start_index: 0,
        character_end_index: 2,
        dialogue_input_index: 0,
      },
      {
        voice_id: 'B',
        start_time_seconds: 1.25,
        end_time_seconds: 1.75,
        character_start_index: 3,
        character_end_index: 6,
        dialogue_input_index: 1,
      },
    ]);
  });

  it('for any lines: the characters are the lines joined by "\\n", segments cover them in order', () => {
    const lines = fc.array(
      fc.record({
        text: fc.string({ minLength: 1, maxLength: 20 }),
        seconds: fc.integer({ min: 0, max: 3000 }),
      }),
      { minLength: 1, maxLength: 12 },
    );
    fc.assert(
      fc.property(lines, (input) => {
        const timeline = new DialogueTimeline(8000, 250);
        const chunks = input.map((l, i) => timeline.add(spoken(l.text, l.seconds / 1000, 'v', 8000), i));
        const whole = joinChunks(chunks);
        const characters = whole.alignment.characters;
        expect(characters.join('')).toBe(input.map((l) => l.text).join('\n'));
        expect(whole.alignment.character_start_times_seconds).toHaveLength(characters.length);
        let previousEnd = 0;
        whole.voiceSegments.forEach((segment, i) => {
          expect(segment.dialogue_input_index).toBe(i);
          expect(characters.slice(segment.character_start_index, segment.character_end_index).join('')).toBe(
            input[i]?.text,
          );
          expect(segment.start_time_seconds).toBeGreaterThanOrEqual(previousEnd);
          expect(segment.end_time_seconds).toBeGreaterThanOrEqual(segment.start_time_seconds);
          previousEnd = segment.end_time_seconds;
        });
        expect(whole.samples.length / 8000).toBeCloseTo(previousEnd, 2);
        // Times never go back.
        const starts = whole.alignment.character_start_times_seconds;
        for (let i = 1; i < starts.length; i += 1)
          expect(starts[i]).toBeGreaterThanOrEqual(starts[i - 1] as number);
      }),
    );
  });
});
