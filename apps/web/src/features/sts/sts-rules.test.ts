import { STS_MAX_UPLOAD_BYTES } from '@parla/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUDIO_UPLOAD_EXTENSIONS } from '../../lib/audio-upload-types';
import {
  formatClipDuration,
  microphoneErrorMessage,
  pickRecordingType,
  recordingFileName,
} from '../../lib/recording';
import { checkAudioFile, checkClipLength, estimateConversionCredits } from './sts-rules';

const file = (name: string, type: string, size = 1000) => ({ name, type, size });

describe('checkAudioFile', () => {
  it('accepts every §5 audio extension, whatever type the browser names', () => {
    for (const extension of AUDIO_UPLOAD_EXTENSIONS)
      expect(checkAudioFile(file(`a.${extension}`, ''))).toBeNull();
  });

  it('accepts an audio MIME type without a known extension, parameters included', () => {
    expect(checkAudioFile(file('take', 'audio/webm;codecs=opus'))).toBeNull();
    expect(checkAudioFile(file('clip.bin', 'audio/x-wav'))).toBeNull();
  });

  it('refuses other types, naming the ones it takes', () => {
    expect(checkAudioFile(file('notes.pdf', 'application/pdf'))).toMatch(
      /notes\.pdf is not an audio file we can convert\. Choose AAC, AIFF/,
    );
    expect(checkAudioFile(file('photo.png', 'image/png'))).not.toBeNull();
  });

  it('refuses an empty file and one over 50 MB, and takes exactly 50 MB', () => {
    expect(checkAudioFile(file('a.mp3', 'audio/mpeg', 0))).toBe('a.mp3 is empty.');
    expect(checkAudioFile(file('a.mp3', 'audio/mpeg', STS_MAX_UPLOAD_BYTES))).toBeNull();
    expect(checkAudioFile(file('a.mp3', 'audio/mpeg', 60 * 1024 * 1024))).toBe(
      'a.mp3 is 60.0 MB; files of at most 50 MB can be converted.',
    );
  });
});

describe('estimateConversionCredits (1,000 a minute, per started second)', () => {
  it('charges started seconds', () => {
    expect(estimateConversionCredits(60)).toBe(1000);
    expect(estimateConversionCredits(0.2)).toBe(17);
    expect(estimateConversionCredits(1)).toBe(17);
    expect(estimateConversionCredits(1.01)).toBe(34);
    expect(estimateConversionCredits(300)).toBe(5000);
  });

  it('is unknown without a length', () => {
    expect(estimateConversionCredits(null)).toBeNull();
    expect(estimateConversionCredits(Number.POSITIVE_INFINITY)).toBeNull();
    expect(estimateConversionCredits(0)).toBeNull();
  });

  it('never falls as the clip grows', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.001, max: 600, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        (a, b) => {
          expect(estimateConversionCredits(a + b) ?? 0).toBeGreaterThanOrEqual(
            estimateConversionCredits(a) ?? 0,
          );
        },
      ),
    );
  });
});

describe('formatClipDuration', () => {
  it('reads m:ss, a started second counting', () => {
    expect(formatClipDuration(0)).toBe('0:00');
    expect(formatClipDuration(0.4)).toBe('0:01');
    expect(formatClipDuration(7)).toBe('0:07');
    expect(formatClipDuration(65.2)).toBe('1:06');
    expect(formatClipDuration(300)).toBe('5:00');
    expect(formatClipDuration(Number.NaN)).toBe('0:00');
  });
});

describe('checkClipLength', () => {
  it('takes up to five minutes', () => {
    expect(checkClipLength(null)).toBeNull();
    expect(checkClipLength(300)).toBeNull();
    expect(checkClipLength(301)).toBe('This recording is 5:01 long; at most 5:00 can be converted.');
  });
});

describe('recording', () => {
  it('records in the first type the browser supports', () => {
    expect(pickRecordingType((type) => type === 'audio/mp4')).toBe('audio/mp4');
    expect(pickRecordingType(() => true)).toBe('audio/webm;codecs=opus');
    expect(pickRecordingType(() => false)).toBe('');
  });

  it('names the file by its time and type', () => {
    const date = new Date('2025-03-04T05:06:07Z');
    expect(recordingFileName('audio/webm;codecs=opus', date)).toBe('recording-20250304-050607.webm');
    expect(recordingFileName('audio/mp4', date)).toBe('recording-20250304-050607.m4a');
    expect(recordingFileName('audio/ogg;codecs=opus', date)).toBe('recording-20250304-050607.ogg');
  });

  it('explains why the microphone could not be opened', () => {
    expect(microphoneErrorMessage(new DOMException('no', 'NotAllowedError'))).toMatch(/denied/);
    expect(microphoneErrorMessage(new DOMException('no', 'NotFoundError'))).toMatch(/No microphone/);
    expect(microphoneErrorMessage(new Error('boom'))).toMatch(/could not be started/);
  });
});
