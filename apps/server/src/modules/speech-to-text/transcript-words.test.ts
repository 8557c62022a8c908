import { describe, expect, it } from 'vitest';
import type { FileTranscription } from '../../providers/stt/stt-provider';
import { speakersOf, textOf, toChunk, toMultichannel, withSpacings } from './transcript-words';

const heard = (over: Partial<FileTranscription> = {}): FileTranscription => ({
  languageCode: 'eng',
  languageProbability: 0.98,
  durationSecs: 4,
  channels: 1,
  segments: [
    {
      start: 0.2,
      end: 1.4,
      text: 'Hello there,',
      speaker: 'speaker_0',
      words: [
        { text: 'Hello', start: 0.2, end: 0.6, characters: [{ text: 'H', start: 0.2, end: 0.3 }] },
        { text: 'there,', start: 0.7, end: 1.4 },
      ],
    },
    {
      start: 2,
      end: 3,
      text: 'friend.',
      speaker: 'speaker_1',
      words: [{ text: 'friend.', start: 2, end: 3 }],
    },
  ],
  events: [{ label: 'laughter', start: 1.5, end: 1.9 }],
  ...over,
});

describe('the public API transcript from what was heard', () => {
  it('puts a spacing between each two words, with the gap as its time', () => {
    const chunk = toChunk(heard({ events: [] }), { timestamps: 'word', audioEvents: true });
    expect(chunk.words.map((w) => [w.type, w.text, w.start, w.end])).toEqual([
      ['word', 'Hello', 0.2, 0.6],
      ['spacing', ' ', 0.6, 0.7],
      ['word', 'there,', 0.7, 1.4],
      ['spacing', ' ', 1.4, 2],
      ['word', 'friend.', 2, 3],
    ]);
    expect(chunk.text).toBe('Hello there, friend.');
    expect(chunk.words.every((w) => w.logprob === 0)).toBe(true);
    expect(chunk.words.map((w) => w.speaker_id)).toEqual([
      'speaker_0',
      'speaker_0',
      'speaker_0',
      'speaker_1',
      'speaker_1',
    ]);
    expect(chunk).toMatchObject({ language_code: 'eng', language_probability: 0.98 });
  });

  it('keeps audio events only when asked, where they were found', () => {
    const tagged = toChunk(heard(), { timestamps: 'word', audioEvents: true });
    expect(tagged.text).toBe('Hello there, (laughter) friend.');
    expect(tagged.words.filter((w) => w.type === 'audio_event')).toEqual([
      { text: '(laughter)', start: 1.5, end: 1.9, type: 'audio_event', logprob: 0 },
    ]);
    const plain = toChunk(heard(), { timestamps: 'word', audioEvents: false });
    expect(plain.words.some((w) => w.type === 'audio_event')).toBe(false);
    // No event is invented when none was detected.
    expect(toChunk(heard({ events: [] }), { timestamps: 'word', audioEvents: true }).text).not.toContain('(');
  });

  it('sends characters only for character granularity', () => {
    const words = toChunk(heard(), { timestamps: 'word', audioEvents: false }).words;
    expect(words.some((w) => w.characters)).toBe(false);
    const chars = toChunk(heard(), { timestamps: 'character', audioEvents: false }).words;
    expect(chars[0]?.characters).toEqual([{ text: 'H', start: 0.2, end: 0.3 }]);
  });

  it('without timestamps, splits the segments into words at their segment time', () => {
    const none = heard({ segments: heard().segments.map((s) => ({ ...s, words: [] })), events: [] });
    const chunk = toChunk(none, { timestamps: 'none', audioEvents: false });
    expect(chunk.text).toBe('Hello there, friend.');
    expect(chunk.words.filter((w) => w.type === 'word').map((w) => [w.text, w.start])).toEqual([
      ['Hello', 0.2],
      ['there,', 0.2],
      ['friend.', 2],
    ]);
  });

  it('answers an empty transcript for audio with no speech', () => {
    const chunk = toChunk(heard({ segments: [], events: [] }), { timestamps: 'word', audioEvents: true });
    expect(chunk).toMatchObject({ text: '', words: [] });
  });

  it('gives one chunk per channel (separate) or one merged by time (combined)', () => {
    const left = heard({ events: [] });
    const right = heard({
      events: [],
      segments: [{ start: 0.5, end: 0.9, text: 'Yes.', words: [{ text: 'Yes.', start: 0.5, end: 0.9 }] }],
    });
    const separate = toMultichannel([left, right], {
      timestamps: 'word',
      audioEvents: false,
      style: 'separate',
    });
    expect('transcripts' in separate && separate.transcripts.map((t) => [t.channel_index, t.text])).toEqual([
      [0, 'Hello there, friend.'],
      [1, 'Yes.'],
    ]);
    const combined = toMultichannel([left, right], {
      timestamps: 'word',
      audioEvents: false,
      style: 'combined',
    });
    expect('words' in combined && combined.text).toBe('Hello Yes. there, friend.');
    expect(
      'words' in combined && combined.words.filter((w) => w.type === 'word').map((w) => w.channel_index),
    ).toEqual([0, 1, 0, 0]);
  });

  it('never gives a spacing a negative length, even for overlapping words', () => {
    const words = withSpacings([
      { text: 'a', start: 0, end: 1, type: 'word' },
      { text: 'b', start: 0.5, end: 2, type: 'word' },
    ]);
    const spacing = words[1];
    expect(spacing?.type).toBe('spacing');
    expect((spacing?.end ?? 0) - (spacing?.start ?? 0)).toBeGreaterThanOrEqual(0);
    expect(textOf(words)).toBe('a b');
  });

  it('lists the speakers in the order they first speak', () => {
    expect(speakersOf(toChunk(heard(), { timestamps: 'word', audioEvents: false }))).toEqual([
      'speaker_0',
      'speaker_1',
    ]);
  });
});
