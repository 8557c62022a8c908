import type { PcmAudio } from '@parla/audio';
import { beforeAll, describe, expect, it } from 'vitest';
import { fliteSpeech } from '../voice-audio/test-signals';
import { pocketsphinxStt } from './pocketsphinx';
import { wordErrorRate, words } from './words';

const SENTENCE = 'The weather is nice today and the children are playing in the park.';
let speech: PcmAudio;
beforeAll(async () => {
  speech = await fliteSpeech('slt', SENTENCE);
}, 60_000);

describe('pocketsphinxStt', () => {
  it('hears most words of clear speech, in the program host', { timeout: 60_000 }, async () => {
    const heard = await pocketsphinxStt.transcribe(speech);
    expect(heard).toBe(heard.toLowerCase());
    expect(wordErrorRate(SENTENCE, heard)).toBeLessThan(0.6);
  });

  it('rejects when it runs past its time bound', { timeout: 60_000 }, async () => {
    await expect(pocketsphinxStt.transcribe(speech, { timeoutMs: 1 })).rejects.toThrow(/too long/);
  });
});

describe('words', () => {
  it('lower-cases, drops punctuation and keeps apostrophes', () => {
    expect(words('It’s ten O’Clock, Sir!')).toEqual(["it's", 'ten', "o'clock", 'sir']);
  });

  it('measures word error by edit distance over the reference', () => {
    expect(wordErrorRate('a b c d', 'a x c')).toBe(0.5);
    expect(wordErrorRate('', 'anything')).toBe(0);
  });
});
