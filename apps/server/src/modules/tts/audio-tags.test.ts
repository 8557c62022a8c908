import { characterTimes, identityNormalization, normalizeEnglish, originalTimes } from '@parla/audio';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyGain,
  findAudioTags,
  normalizeAudioTags,
  planSentences,
  readAudioTag,
  whisperVariant,
} from './audio-tags';

const read = (text: string, normalize = false) =>
  normalizeAudioTags(text, normalize ? normalizeEnglish : identityNormalization);
const say = (text: string) => read(text).text;
/** An innermost bracket pair on one line: what a tag looks like in the spoken text. */
const TAG_LIKE = /\[[^[\]\n\r]*\]/;

describe('reading v3 audio tags', () => {
  it.each([
    ['[whispers] I have a secret. [short pause] [excited] It is done!', 'I have a secret. It is done!'],
    ['Hello [laughs] there.', 'Hello there.'],
    ['Hello[laughs]there.', 'Hello there.'],
    ['Hello [laughs].', 'Hello.'],
    ['It is done! [sighs]', 'It is done!'],
    ['[[whispers]] Nested brackets are one tag.', 'Nested brackets are one tag.'],
    ['[whis\npers] A newline splits brackets.', '[whis\npers] A newline splits brackets.'],
    ['An [unclosed bracket stays.', 'An [unclosed bracket stays.'],
    ['Unknown [flibbertigibbet] tags are dropped.', 'Unknown tags are dropped.'],
    ['One.\n[pause]\nTwo.', 'One.\n\nTwo.'],
  ])('%j is spoken as %j', (text, spoken) => expect(say(text)).toBe(spoken));

  it('names tags loosely and knows what each one does', () => {
    expect(readAudioTag(' Short_Pause ')).toMatchObject({ name: 'short pause', kind: 'pause' });
    expect(readAudioTag('long-pause').effect).toEqual({ pauseMs: 1000 });
    expect(readAudioTag('whispers')).toMatchObject({ kind: 'delivery', effect: { whisper: true } });
    expect(readAudioTag('laughs')).toMatchObject({ kind: 'non_verbal', effect: {} });
    expect(readAudioTag('sarcastic')).toMatchObject({ kind: 'unknown', effect: {} });
    expect(findAudioTags('a [b] [c [d]] e').map((t) => t.name)).toEqual(['b', 'c d']);
  });

  it('normalises the text between tags and keeps the tags’ characters mapped', () => {
    const normalized = read('[excited] It costs $5!', true);
    expect(normalized.text).toBe('It costs five dollars!');
    expect(normalized.segments[0]).toMatchObject({
      start: 0,
      end: 10,
      spoken: '',
      tags: [{ name: 'excited' }],
    });
  });

  it('for any text: no tag is spoken, every written character is covered once, plain text is unchanged', () => {
    const pieces = fc.oneof(
      fc.constantFrom('[', ']', ' ', '\n', '.', '[pause]', '[whispers]', '[laughs]', '[[a]]', 'x', '$5', '3'),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 30 }), fc.boolean(), (parts, normalize) => {
        const text = parts.join('');
        const normalized = read(text, normalize);
        expect(normalized.text).not.toMatch(TAG_LIKE);
        let at = 0;
        for (const segment of normalized.segments) {
          expect(segment.start).toBe(at);
          expect(segment.end).toBeGreaterThan(segment.start);
          at = segment.end;
        }
        expect(at).toBe(text.length);
        expect(normalized.segments.map((s) => s.spoken).join('')).toBe(normalized.text);
        if (!/[[\]]/.test(text))
          expect(normalized.text).toBe((normalize ? normalizeEnglish : identityNormalization)(text).text);
      }),
    );
  });
});

describe('the scope of a tag', () => {
  const plan = (text: string) => {
    const normalized = read(text);
    return planSentences(normalized).map((sentence) => ({
      pieces: sentence.pieces.map((p) => ({
        text: normalized.text.slice(p.start, p.end),
        delivery: p.delivery,
        pauseBeforeMs: p.pauseBeforeMs,
      })),
      pauseAfterMs: sentence.pauseAfterMs,
    }));
  };

  it('holds for its sentence; a pause between sentences opens the next one', () => {
    expect(plan('[whispers] I have a secret. [short pause] [slowly] It is done! Back to normal.')).toEqual([
      {
        pieces: [{ text: 'I have a secret.', delivery: { gainDb: -12, whisper: true }, pauseBeforeMs: 0 }],
        pauseAfterMs: 0,
      },
      { pieces: [{ text: 'It is done!', delivery: { rate: 0.8 }, pauseBeforeMs: 250 }], pauseAfterMs: 0 },
      { pieces: [{ text: 'Back to normal.', delivery: {}, pauseBeforeMs: 0 }], pauseAfterMs: 0 },
    ]);
  });

  it('splits a sentence at a tag inside it; a later tag replaces only what it names', () => {
    expect(
      plan('[whispers] I have [slowly] a secret [laughs] for you [long pause] [shouts] now.')[0]?.pieces,
    ).toEqual([
      { text: 'I have', delivery: { gainDb: -12, whisper: true }, pauseBeforeMs: 0 },
      { text: 'a secret for you', delivery: { gainDb: -12, whisper: true, rate: 0.8 }, pauseBeforeMs: 0 },
      {
        text: 'now.',
        delivery: { gainDb: 6, whisper: false, rate: 0.8, pitch: 1.1, range: 1.3 },
        pauseBeforeMs: 1000,
      },
    ]);
  });

  it('leaves a sentence whole around a tag that changes nothing', () => {
    expect(plan('Hello [laughs] there [whispers] you [whispers] two.')[0]?.pieces).toEqual([
      { text: 'Hello there', delivery: {}, pauseBeforeMs: 0 },
      { text: 'you two.', delivery: { gainDb: -12, whisper: true }, pauseBeforeMs: 0 },
    ]);
  });

  it('keeps only the pause of a tag after the last word, and caps the silence of one run', () => {
    expect(plan('Wait [long pause].')).toEqual([
      { pieces: [{ text: 'Wait.', delivery: {}, pauseBeforeMs: 0 }], pauseAfterMs: 1000 },
    ]);
    expect(plan(`Done. ${'[long pause] '.repeat(5)}`)[0]?.pauseAfterMs).toBe(3000);
  });

  it('leaves text without tags as one piece per sentence, with no effect', () => {
    expect(plan('One sentence. Two sentences!')).toEqual([
      { pieces: [{ text: 'One sentence.', delivery: {}, pauseBeforeMs: 0 }], pauseAfterMs: 0 },
      { pieces: [{ text: 'Two sentences!', delivery: {}, pauseBeforeMs: 0 }], pauseAfterMs: 0 },
    ]);
  });
});

describe('tags in the alignment', () => {
  it('gives a tag no duration, at the point where it stands', () => {
    const text = 'Hi. [long pause] Yes.';
    const normalized = read(text);
    expect(normalized.text).toBe('Hi. Yes.');
    const spoken = characterTimes(
      normalized.text,
      [
        { start: 0, end: 2, startMs: 0, endMs: 300 },
        { start: 4, end: 7, startMs: 1500, endMs: 1800 },
      ],
      1900,
    );
    const times = originalTimes(normalized, spoken, text.length);
    const tag = text.indexOf('[');
    expect(times[tag]).toEqual([300, 300]);
    expect(times[text.indexOf(']')]).toEqual([300, 300]);
    expect(times[text.indexOf('Yes')]?.[0]).toBe(1500);
  });
});

describe('delivery helpers', () => {
  it('picks the eSpeak whisper variant for the voice', () => {
    expect(whisperVariant('en-us+f3')).toBe('en-us+whisperf');
    expect(whisperVariant('en-gb-x-rp+m3')).toBe('en-gb-x-rp+whisper');
    expect(whisperVariant('de')).toBe('de+whisper');
  });

  it('lowers by the gain, and raises below −1 dBFS without clipping', () => {
    expect([...applyGain(new Int16Array([1000, -2000]), -6)]).toEqual([501, -1002]);
    const loud = applyGain(new Int16Array([1000, 29204, -32768]), 6);
    expect(loud[0]).toBeGreaterThan(1900);
    expect(Math.max(...[...loud].map(Math.abs))).toBeLessThanOrEqual(29204);
  });
});
