import { describe, expect, it } from 'vitest';
import { lexiconFileName } from './api/download-dictionary';
import { emptyDraft, ruleFlags, ruleFromDraft, ruleSays } from './dictionary-rules';

describe('the add-rule form’s rules', () => {
  it('makes an alias or a phoneme rule, trimmed, with the flags as set', () => {
    expect(ruleFromDraft({ ...emptyDraft(), word: ' UN ', alias: ' United Nations ' }).rule).toEqual({
      type: 'alias',
      string_to_replace: 'UN',
      alias: 'United Nations',
      case_sensitive: false,
      word_boundaries: true,
    });
    expect(
      ruleFromDraft({
        ...emptyDraft(),
        type: 'phoneme',
        word: 'tomato',
        phoneme: 'təˈmɑːtoʊ',
        caseSensitive: true,
      }).rule,
    ).toMatchObject({ type: 'phoneme', phoneme: 'təˈmɑːtoʊ', alphabet: 'ipa', case_sensitive: true });
  });

  it('says what is missing or wrong, field by field, as the server would', () => {
    expect(ruleFromDraft(emptyDraft()).problems).toEqual({
      word: 'Enter the word or phrase to replace.',
      value: 'Enter what to say instead.',
    });
    expect(
      ruleFromDraft({ ...emptyDraft(), type: 'phoneme', word: 'x', phoneme: 't@!' }).problems?.value,
    ).toMatch(/not IPA/);
    expect(
      ruleFromDraft({
        ...emptyDraft(),
        type: 'phoneme',
        alphabet: 'cmu-arpabet',
        word: 'x',
        phoneme: 'T AH5',
      }).problems?.value,
    ).toMatch(/"AH5" is not a CMU ARPAbet phone/);
    expect(ruleFromDraft({ ...emptyDraft(), word: 'x'.repeat(201), alias: 'y' }).problems?.word).toBe(
      'At most 200 characters.',
    );
  });

  it('reads a rule back: what is said, the flags that were set, a file name for its dictionary', () => {
    expect(ruleSays({ type: 'phoneme', string_to_replace: 'x', phoneme: 'ɛks', alphabet: 'ipa' })).toBe(
      '/ɛks/',
    );
    expect(ruleFlags({ type: 'alias', string_to_replace: 'x', alias: 'y' })).toEqual([]);
    expect(
      ruleFlags({
        type: 'alias',
        string_to_replace: 'x',
        alias: 'y',
        case_sensitive: true,
        word_boundaries: false,
      }),
    ).toEqual(['case sensitive', 'inside words too']);
    expect(lexiconFileName(' Names & Places ')).toBe('Names-Places.pls');
    expect(lexiconFileName('!!!')).toBe('dictionary.pls');
  });
});
