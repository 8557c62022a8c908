import { describe, expect, it } from 'vitest';
import { firstPieceLength } from './first-piece';

const cut = (sentence: string) => {
  const n = firstPieceLength(sentence);
  return [sentence.slice(0, n), sentence.slice(n)];
};

describe('the first piece of a stream’s first sentence', () => {
  it('ends at the first phrase end within eight words', () => {
    expect(cut('Good morning and welcome, this is your daily news summary for today.')).toEqual([
      'Good morning and welcome,',
      ' this is your daily news summary for today.',
    ]);
    expect(cut('Before we begin today; please check that your microphone is muted.')[0]).toBe(
      'Before we begin today;',
    );
  });

  it('with no phrase end that soon, ends after about five words, never on a little word', () => {
    expect(cut('The quarterly report shows strong growth in every region this year.')[0]).toBe(
      'The quarterly report shows strong',
    );
    // The fifth word is "the": the cut moves to the fourth.
    expect(cut('We will now review the results of the survey with the whole team.')[0]).toBe(
      'We will now review',
    );
    // A comma too early (after two words) does not count.
    expect(cut('Hi there, we will now review results of the survey with the team.')[0]).toBe(
      'Hi there, we will now',
    );
  });

  it('leaves a short sentence whole, and always leaves two words for the rest', () => {
    expect(firstPieceLength('Hello there, how are you?')).toBe('Hello there, how are you?'.length);
    const seven = 'One two three four five six seven.';
    expect(cut(seven)).toEqual(['One two three four five', ' six seven.']);
  });
});
