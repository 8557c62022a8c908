import { describe, expect, it } from 'vitest';
import type { TranscriptChunk } from './api/types';
import {
  checkTranscriptionFile,
  findWordAt,
  formatTimestamp,
  groupParagraphs,
  listSpeakers,
  STT_LANGUAGES,
  searchTranscript,
  speakerName,
  sttLanguageName,
  toViewWords,
  transcriptPlainText,
} from './stt-rules';

/** A transcript of words `[text, start, end, speaker]`, with the spaces the API puts between them. */
function chunk(words: Array<[string, number, number, string?]>): TranscriptChunk {
  return {
    language_code: 'eng',
    language_probability: 0.98,
    text: words.map(([text]) => text).join(' '),
    words: words.flatMap(([text, start, end, speaker], index) => [
      ...(index > 0 ? [{ text: ' ', start, end: start, type: 'spacing' as const, logprob: 0 }] : []),
      { text, start, end, type: 'word' as const, ...(speaker ? { speaker_id: speaker } : {}), logprob: -0.1 },
    ]),
  };
}

describe('speech-to-text rules', () => {
  it('lists auto detect plus about 57 languages, English the only built-in one (history/voices §9)', () => {
    expect(STT_LANGUAGES.length).toBeGreaterThanOrEqual(55);
    expect(STT_LANGUAGES.length).toBeLessThanOrEqual(60);
    expect(STT_LANGUAGES.filter((l) => l.builtIn).map((l) => l.code)).toEqual(['eng']);
    expect(new Set(STT_LANGUAGES.map((l) => l.code)).size).toBe(STT_LANGUAGES.length);
    expect(sttLanguageName('eng')).toBe('English');
    expect(sttLanguageName('FR')).toBe('French');
    expect(sttLanguageName('xx')).toBe('xx');
    expect(sttLanguageName(null)).toBeNull();
  });

  it('takes §5 audio and video files up to 1 GB and refuses the rest before sending', () => {
    expect(checkTranscriptionFile({ name: 'talk.mp3', type: 'audio/mpeg', size: 10 })).toBeNull();
    expect(checkTranscriptionFile({ name: 'clip.mov', type: 'video/quicktime', size: 10 })).toBeNull();
    expect(checkTranscriptionFile({ name: 'clip.mkv', type: '', size: 10 })).toBeNull();
    expect(
      checkTranscriptionFile({ name: 'take.webm', type: 'audio/webm;codecs=opus', size: 10 }),
    ).toBeNull();
    expect(checkTranscriptionFile({ name: 'notes.pdf', type: 'application/pdf', size: 10 })).toMatch(
      /^notes\.pdf is not an audio or video file/,
    );
    expect(checkTranscriptionFile({ name: 'empty.wav', type: 'audio/wav', size: 0 })).toBe(
      'empty.wav is empty.',
    );
    expect(checkTranscriptionFile({ name: 'big.mp4', type: 'video/mp4', size: 1024 ** 3 + 1 })).toBe(
      'big.mp4 is 1024.0 MB; files of at most 1 GB can be transcribed.',
    );
    expect(checkTranscriptionFile({ name: 'max.mp4', type: 'video/mp4', size: 1024 ** 3 })).toBeNull();
  });

  it('drops spaces, and groups words into paragraphs by speaker and by pauses after a sentence', () => {
    const words = toViewWords(
      chunk([
        ['Hello', 0, 0.4, 'speaker_0'],
        ['there.', 0.5, 0.9, 'speaker_0'],
        ['Hi!', 1.2, 1.5, 'speaker_1'],
        ['Long', 1.6, 1.9, 'speaker_1'],
        ['pause.', 2.0, 2.4, 'speaker_1'],
        ['Then', 4.0, 4.3, 'speaker_1'],
        ['more', 4.4, 4.7, 'speaker_1'],
      ]),
    );
    expect(words.map((w) => w.text)).toEqual(['Hello', 'there.', 'Hi!', 'Long', 'pause.', 'Then', 'more']);
    const paragraphs = groupParagraphs(words);
    expect(paragraphs.map((p) => [p.first, p.last, p.speakerId, p.start])).toEqual([
      [0, 1, 'speaker_0', 0],
      [2, 4, 'speaker_1', 1.2],
      [5, 6, 'speaker_1', 4.0],
    ]);
    expect(listSpeakers(words)).toEqual(['speaker_0', 'speaker_1']);
    expect(transcriptPlainText(words, paragraphs, { speaker_1: 'Bob' })).toBe(
      '[0:00] Speaker 1: Hello there.\n\n[0:01] Bob: Hi! Long pause.\n\n[0:04] Bob: Then more',
    );
  });

  it('finds the word spoken at a time, and none in a long pause or before the first word', () => {
    const words = toViewWords(
      chunk([
        ['a', 1, 1.5],
        ['b', 1.6, 2],
        ['c', 5, 5.5],
      ]),
    );
    expect(findWordAt(words, 0.5)).toBe(-1);
    expect(findWordAt(words, 1)).toBe(0);
    expect(findWordAt(words, 1.55)).toBe(0);
    expect(findWordAt(words, 1.7)).toBe(1);
    expect(findWordAt(words, 2.5)).toBe(1);
    expect(findWordAt(words, 3.5)).toBe(-1);
    expect(findWordAt(words, 5.2)).toBe(2);
    expect(findWordAt(words, 99)).toBe(-1);
  });

  it('searches words and phrases without regard to case, accents or punctuation', () => {
    const words = toViewWords(
      chunk([
        ['The', 0, 1],
        ['Café', 1, 2],
        ['opens.', 2, 3],
        ['the', 3, 4],
        ['cafe', 4, 5],
        ['closes', 5, 6],
      ]),
    );
    expect(searchTranscript(words, 'cafe')).toEqual([
      { first: 1, last: 1 },
      { first: 4, last: 4 },
    ]);
    expect(searchTranscript(words, 'the café')).toEqual([
      { first: 0, last: 1 },
      { first: 3, last: 4 },
    ]);
    expect(searchTranscript(words, 'cafe opens')).toEqual([{ first: 1, last: 2 }]);
    expect(searchTranscript(words, 'pen')).toEqual([{ first: 2, last: 2 }]);
    expect(searchTranscript(words, '  ')).toEqual([]);
    expect(searchTranscript(words, 'nothing')).toEqual([]);
  });

  it('names speakers by their given name or their number, and formats times', () => {
    expect(speakerName('speaker_0', {})).toBe('Speaker 1');
    expect(speakerName('speaker_0', { speaker_0: '  ' })).toBe('Speaker 1');
    expect(speakerName('speaker_2', { speaker_2: 'Alice' })).toBe('Alice');
    expect(speakerName('channel_1', {})).toBe('Channel 2');
    expect(formatTimestamp(0)).toBe('0:00');
    expect(formatTimestamp(65.9)).toBe('1:05');
    expect(formatTimestamp(3725)).toBe('1:02:05');
    expect(formatTimestamp(null)).toBe('0:00');
  });

  it('merges the channels of a multichannel transcript in time order, each channel a speaker', () => {
    const left = {
      ...chunk([
        ['left', 0, 1],
        ['again', 2, 3],
      ]),
      channel_index: 0,
    };
    const right = { ...chunk([['right', 1, 2]]), channel_index: 1 };
    const words = toViewWords({ transcripts: [left, right] });
    expect(words.map((w) => [w.text, w.speakerId])).toEqual([
      ['left', 'channel_0'],
      ['right', 'channel_1'],
      ['again', 'channel_0'],
    ]);
  });
});
