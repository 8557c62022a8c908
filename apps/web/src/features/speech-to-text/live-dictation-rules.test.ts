import { REALTIME_ERROR_TYPES, type RealtimeServerMessage } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import {
  applyTranscriptMessage,
  type DictationText,
  dictationCloseMessage,
  dictationErrorMessage,
  emptyDictation,
  findKeptDictation,
  isRealtimeError,
  parseRealtimeMessage,
} from './live-dictation-rules';

function play(messages: RealtimeServerMessage[]): DictationText {
  let text = emptyDictation;
  let previous: string | undefined;
  for (const message of messages) {
    text = applyTranscriptMessage(text, message, previous);
    previous = message.message_type;
  }
  return text;
}

describe('the dictated text', () => {
  it('shows partials, keeps committed sentences and clears the partial on commit', () => {
    expect(
      play([
        { message_type: 'partial_transcript', text: 'the quick' },
        { message_type: 'partial_transcript', text: 'the quick brown fox' },
      ]),
    ).toEqual({ committed: [], partial: 'the quick brown fox' });
    expect(
      play([
        { message_type: 'partial_transcript', text: 'the quick' },
        { message_type: 'committed_transcript', text: ' The quick brown fox. ' },
        { message_type: 'partial_transcript', text: 'jumps' },
        { message_type: 'committed_transcript', text: 'Jumps.' },
      ]),
    ).toEqual({ committed: ['The quick brown fox.', 'Jumps.'], partial: '' });
  });

  it('keeps one sentence of a committed pair with timestamps, and skips empty commits', () => {
    expect(
      play([
        { message_type: 'committed_transcript', text: 'Hello.' },
        {
          message_type: 'committed_transcript_with_timestamps',
          text: 'Hello.',
          language_code: 'en',
          words: [],
        },
        { message_type: 'committed_transcript', text: '   ' },
      ]),
    ).toEqual({ committed: ['Hello.'], partial: '' });
  });

  it('ignores other messages', () => {
    expect(play([{ message_type: 'session_started', session_id: 's', config: {} as never }])).toEqual(
      emptyDictation,
    );
  });
});

describe('server frames', () => {
  it('parses messages and refuses anything else', () => {
    expect(parseRealtimeMessage('{"message_type":"partial_transcript","text":"a"}')).toEqual({
      message_type: 'partial_transcript',
      text: 'a',
    });
    expect(parseRealtimeMessage('not json')).toBeNull();
    expect(parseRealtimeMessage('{"text":"a"}')).toBeNull();
    expect(parseRealtimeMessage(new ArrayBuffer(2))).toBeNull();
  });

  it('says something for every error type the SDK knows', () => {
    for (const type of REALTIME_ERROR_TYPES) {
      expect(isRealtimeError({ message_type: type, error: 'x' })).toBe(true);
      expect(dictationErrorMessage(type, 'detail').length).toBeGreaterThan(10);
    }
    expect(isRealtimeError({ message_type: 'partial_transcript', text: '' })).toBe(false);
    expect(dictationErrorMessage('quota_exceeded', '')).toMatch(/no credits left/);
    expect(dictationErrorMessage('rate_limited', '')).toMatch(/concurrent sessions are all in use/);
    expect(dictationErrorMessage('input_error', 'sample rate 8000 does not match')).toBe(
      'The server could not read the audio: sample rate 8000 does not match.',
    );
    expect(dictationCloseMessage(1013, true)).toMatch(/busy/);
    expect(dictationCloseMessage(1006, true)).toMatch(/connection to the server was lost/);
    expect(dictationCloseMessage(1006, false)).toMatch(/could not connect/);
  });
});

describe('the transcript a dictation was kept as (issue 26 item 7)', () => {
  const at = (id: string, created: number) => ({ transcription_id: id, created_at_unix: created });

  it('is the newest transcript the list did not hold before, made since the dictation started', () => {
    const known = new Set(['old1', 'old2']);
    expect(findKeptDictation([at('old1', 990), at('old2', 800)], known, 1000)).toBeNull();
    expect(findKeptDictation([at('new', 1010), at('old1', 990)], known, 1000)).toBe('new');
    // One the list had not loaded yet, but made long before: not the dictation's.
    expect(findKeptDictation([at('older', 100)], known, 1000)).toBeNull();
  });

  it('without a list seen before, is the newest made since the dictation started (give or take the clocks)', () => {
    expect(findKeptDictation([at('a', 500)], null, 1000)).toBeNull();
    expect(findKeptDictation([at('b', 990), at('a', 500)], null, 1000)).toBe('b');
  });
});
