import { describe, expect, it } from 'vitest';
import { cutPoint } from './tts-socket';

describe('where a socket’s text buffer is cut for a generation', () => {
  it('after the last complete sentence, as soon as one is there', () => {
    expect(cutPoint('Hello there. How are', false)).toBe('Hello there. '.length);
    expect(cutPoint('One! Two? Three… four', false)).toBe('One! Two? Three… '.length);
    expect(cutPoint('She said "stop." Then', false)).toBe('She said "stop." '.length);
  });

  it('not after an abbreviation or an initial, nor before the sentence end has its space', () => {
    expect(cutPoint('Ask Dr. Smith about', false)).toBe(0);
    expect(cutPoint('J. R. R. Tolkien wrote', false)).toBe(0);
    expect(cutPoint('The end.', false)).toBe(0);
  });

  it('at the schedule’s length, after the last whole word', () => {
    expect(cutPoint('a run of words without any end', false)).toBe(0);
    expect(cutPoint('a run of words without any end', true)).toBe('a run of words without any '.length);
    expect(cutPoint('a run of words ', true)).toBe('a run of words '.length);
    expect(cutPoint('oneverylongword', true)).toBe(0);
  });

  it('never inside a tag', () => {
    expect(cutPoint('Wait. <break time="1s" />', false)).toBe('Wait. '.length);
    expect(cutPoint('Now wait <break time=', true)).toBe('Now wait '.length);
    expect(cutPoint('Well. <phoneme alphabet="ipa" ph="x. y">', false)).toBe('Well. '.length);
    // Nor between an element's opening and closing tags.
    expect(cutPoint('Say <phoneme alphabet="ipa" ph="a">it. Now</phoneme> and', false)).toBe(0);
    expect(cutPoint('Say <phoneme alphabet="ipa" ph="a">it</phoneme>. Then', false)).toBe(
      'Say <phoneme alphabet="ipa" ph="a">it</phoneme>. '.length,
    );
  });
});
