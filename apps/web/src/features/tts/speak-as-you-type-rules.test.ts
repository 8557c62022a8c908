import { describe, expect, it } from 'vitest';
import {
  charactersSpoken,
  decodePcmAudio,
  formatOpenToEveryPlan,
  nextTextToSend,
  scheduleBuffer,
  speakAsYouTypeErrorMessage,
  streamInputPath,
} from './speak-as-you-type-rules';

describe('what is sent as the text grows', () => {
  it('waits for a word to be completed, then sends the completed words', () => {
    expect(nextTextToSend('Hel', 0, false)).toBeNull();
    expect(nextTextToSend('Hello wor', 0, false)).toEqual({ text: 'Hello ', flush: false, sentUpTo: 6 });
    expect(nextTextToSend('Hello world and', 6, false)).toEqual({
      text: 'world ',
      flush: false,
      sentUpTo: 12,
    });
    expect(nextTextToSend('Hello world and', 12, false)).toBeNull();
  });

  it('flushes when the words end a sentence', () => {
    expect(nextTextToSend('Hi there. Next', 0, false)).toEqual({
      text: 'Hi there. ',
      flush: true,
      sentUpTo: 10,
    });
    expect(nextTextToSend('She said "go" then', 0, false)?.flush).toBe(false);
    expect(nextTextToSend('She said "go!"\nthen', 0, false)?.flush).toBe(true);
    expect(nextTextToSend('Really? ', 0, false)?.flush).toBe(true);
  });

  it('after a pause sends everything pending, ending with a space, flushed', () => {
    expect(nextTextToSend('Hello wor', 6, true)).toEqual({ text: 'wor ', flush: true, sentUpTo: 9 });
    expect(nextTextToSend('Hello ', 6, true)).toBeNull();
    expect(nextTextToSend('Hello   ', 6, true)).toBeNull();
  });

  it('speaks only what is added: text edited before the mark is not sent again', () => {
    // The user deleted the end of what was sent: nothing to send until new words come.
    expect(nextTextToSend('Hello', 12, false)).toBeNull();
    expect(nextTextToSend('Hello there ', 5, false)).toEqual({ text: ' there ', flush: false, sentUpTo: 12 });
  });
});

describe('playback', () => {
  it('schedules buffers back to back, and after now when playback has caught up', () => {
    const first = scheduleBuffer(1, 0, 0.5);
    expect(first).toEqual({ start: 1.05, next: 1.55 });
    const second = scheduleBuffer(1.2, first.next, 0.25);
    expect(second).toEqual({ start: 1.55, next: 1.8 });
    // A gap in the audio (typing stopped): the next buffer starts just after now, not in the past.
    expect(scheduleBuffer(5, second.next, 1).start).toBe(5.05);
  });

  it('decodes base64 16-bit little-endian PCM', () => {
    const bytes = Buffer.from([0x00, 0x00, 0xff, 0x7f, 0x00, 0x80, 0x00, 0x40]);
    expect(Array.from(decodePcmAudio(bytes.toString('base64')))).toEqual([0, 32767 / 32768, -1, 0.5]);
  });

  it('counts the characters an audio message speaks', () => {
    expect(
      charactersSpoken({ chars: ['H', 'i', ' '], charStartTimesMs: [0, 1, 2], charDurationsMs: [1, 1, 1] }),
    ).toBe(3);
    expect(charactersSpoken(null)).toBe(0);
  });
});

describe('the socket', () => {
  it('uses a format every plan may use and an escaped voice path', () => {
    expect(formatOpenToEveryPlan).toBe(true);
    expect(streamInputPath('a/b')).toBe('/v1/text-to-speech/a%2Fb/stream-input');
  });

  it('says the server’s error, or why the connection ended', () => {
    expect(
      speakAsYouTypeErrorMessage({ message: 'Voice not found.', error: 'voice_not_found', code: 1008 }),
    ).toBe('Voice not found.');
    expect(speakAsYouTypeErrorMessage(null, 1013)).toMatch(/busy/);
    expect(speakAsYouTypeErrorMessage(null, 1006)).toMatch(/connection to the server was lost/);
  });
});
