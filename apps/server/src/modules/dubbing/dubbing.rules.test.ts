import { dubbingCredits, PREMADE_VOICES } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { parseCsv, parseSegmentsCsv, parseTime } from './dubbing.csv';
import { subtitleFrames } from './dubbing.present';
import { maskProfanity } from './dubbing.profanity';
import { cutSegments, HARD_MAX_SEC } from './dubbing.segments';
import { voiceFor } from './dubbing.voices';

const words = (speaker: string, list: [string, number, number][]) => ({
  speaker,
  words: list.map(([text, start, end]) => ({ text, start, end })),
});

describe('cutting a transcript into dubbing segments', () => {
  it('cuts at a change of speaker, at a long pause and at a sentence end', () => {
    const cut = cutSegments([
      words('speaker_0', [
        ['Hello', 0, 0.4],
        ['there,', 0.45, 0.8],
        ['friend.', 0.85, 1.4],
        ['How', 1.5, 1.7],
        ['are', 1.75, 1.9],
        ['you?', 1.95, 2.3],
      ]),
      words('speaker_1', [
        ['Fine', 2.5, 2.8],
        ['thanks', 2.85, 3.2],
      ]),
      words('speaker_1', [['Bye', 4.5, 4.8]]),
    ]);
    expect(cut.map((s) => [s.speaker, s.text])).toEqual([
      ['speaker_0', 'Hello there, friend.'],
      ['speaker_0', 'How are you?'],
      ['speaker_1', 'Fine thanks'],
      ['speaker_1', 'Bye'],
    ]);
    expect(cut[0]).toMatchObject({ start: 0, end: 1.4 });
  });

  it('keeps a short sentence with the next and never lets a segment run past the hard limit', () => {
    expect(
      cutSegments([
        words('a', [
          ['Yes.', 0, 0.3],
          ['Of', 0.35, 0.5],
          ['course.', 0.55, 1],
        ]),
      ]),
    ).toHaveLength(1);
    const long = Array.from(
      { length: 80 },
      (_, i) => ['word', i * 0.3, i * 0.3 + 0.25] as [string, number, number],
    );
    const cut = cutSegments([words('a', long)]);
    expect(cut.length).toBeGreaterThan(1);
    for (const s of cut) expect(s.end - s.start).toBeLessThanOrEqual(HARD_MAX_SEC + 0.3);
  });
});

describe('the manual mode CSV', () => {
  it('reads quoted fields with commas, quotes and newlines', () => {
    expect(parseCsv('a,"b, c","say ""hi""\nthere"\r\n1,2,3')).toEqual([
      ['a', 'b, c', 'say "hi"\nthere'],
      ['1', '2', '3'],
    ]);
  });

  it('reads seconds and clock times', () => {
    expect(parseTime('12.5')).toBe(12.5);
    expect(parseTime('00:01:02,250')).toBeCloseTo(62.25);
    expect(parseTime('soon')).toBeUndefined();
  });

  it('gives segments and their translations, and refuses a bad row by its number', () => {
    const csv = 'speaker,start_time,end_time,transcription,translation\nAna,0,1.5,Hello,Hola\nBen,2,3,Bye,\n';
    const { segments, translations } = parseSegmentsCsv(csv, 'es');
    expect(segments.map((s) => [s.speaker, s.start, s.end, s.text])).toEqual([
      ['Ana', 0, 1.5, 'Hello'],
      ['Ben', 2, 3, 'Bye'],
    ]);
    expect(translations).toEqual({ es: { 0: 'Hola' } });
    expect(() => parseSegmentsCsv('speaker,start_time,end_time\nA,2,1\n', 'es')).toThrow(/row 2/);
    expect(() => parseSegmentsCsv('who,when\n', 'es')).toThrow(/header row/);
  });
});

describe('the price and the subtitles', () => {
  it('charges per started second of source per language, less with a watermark', () => {
    expect(dubbingCredits(60, 1, false)).toBe(1000);
    expect(dubbingCredits(60, 2, false)).toBe(2000);
    expect(dubbingCredits(60, 1, true)).toBe(660);
    expect(dubbingCredits(0.4, 1, false)).toBe(17);
  });

  it('splits a long text into frames of two lines of at most 42 characters', () => {
    const frames = subtitleFrames(
      'This is a rather long sentence that will not fit on one line of a subtitle at all, surely not',
      0,
      6,
    );
    for (const f of frames) {
      expect(f.lines.length).toBeLessThanOrEqual(2);
      for (const line of f.lines) expect(line.length).toBeLessThanOrEqual(42);
    }
    expect(frames[0]?.start_time).toBe(0);
    expect(frames.at(-1)?.end_time).toBe(6);
    expect(subtitleFrames('', 0, 1)).toEqual([]);
  });

  it('masks listed swear words, whole words only', () => {
    expect(maskProfanity('What the fuck, Shit happens. Mierda!')).toBe(
      'What the f***, S*** happens. M*****!',
    );
    expect(maskProfanity('Scunthorpe and shitake')).toBe('Scunthorpe and shitake');
  });
});

describe('the voice a speaker is dubbed with', () => {
  it('speaks French for a man through the classic model, Kokoro having only a woman’s French voice', async () => {
    const deps = { db: undefined as never, engines: undefined as never, models: undefined as never };
    const caller = { userId: 'u', workspaceId: 'w', requestId: 'r' };
    const speaker = {
      id: 's',
      dubId: 'd',
      position: 0,
      name: 'Speaker 1',
      profile: null,
      voices: {},
      matched: {},
      tuning: {},
    };
    const man = await voiceFor(deps, caller, speaker, 'fr', false);
    expect(man.rendition.engine).toBe('espeak');
    expect(man.rendition.voice).toMatch(/^fr/);
    const spanish = await voiceFor(deps, caller, speaker, 'es', false);
    expect(spanish.rendition.engine).toBe('kokoro');
    // The second man of a Spanish dub is not the jolly Santa character voice.
    const second = await voiceFor(deps, caller, { ...speaker, position: 1 }, 'es', false);
    expect(PREMADE_VOICES.find((v) => v.voice_id === second.voiceId)?.labels.use_case).not.toBe('characters');
    await expect(voiceFor(deps, caller, speaker, 'ko', false)).rejects.toThrow(/No voice here speaks ko/);
  });
});
