import {
  MAX_RULE_STRING_CHARS,
  MAX_RULE_VALUE_CHARS,
  type PhonemeAlphabet,
  type PronunciationRule,
  phonemeProblem,
} from '@parla/contracts';

/** The add-rule form as typed. */
export interface RuleDraft {
  type: 'alias' | 'phoneme';
  word: string;
  alias: string;
  phoneme: string;
  alphabet: PhonemeAlphabet;
  caseSensitive: boolean;
  wordBoundaries: boolean;
}

export const emptyDraft = (): RuleDraft => ({
  type: 'alias',
  word: '',
  alias: '',
  phoneme: '',
  alphabet: 'ipa',
  caseSensitive: false,
  wordBoundaries: true,
});

/** The form's problems by field (the contract's rules), or the rule it makes. */
export function ruleFromDraft(
  draft: RuleDraft,
):
  | { rule: PronunciationRule; problems?: undefined }
  | { rule?: undefined; problems: Partial<Record<'word' | 'value', string>> } {
  const problems: Partial<Record<'word' | 'value', string>> = {};
  const word = draft.word.trim();
  const value = (draft.type === 'alias' ? draft.alias : draft.phoneme).trim();
  if (!word) problems.word = 'Enter the word or phrase to replace.';
  else if (word.length > MAX_RULE_STRING_CHARS)
    problems.word = `At most ${MAX_RULE_STRING_CHARS} characters.`;
  if (!value)
    problems.value = draft.type === 'alias' ? 'Enter what to say instead.' : 'Enter the pronunciation.';
  else if (value.length > MAX_RULE_VALUE_CHARS)
    problems.value = `At most ${MAX_RULE_VALUE_CHARS} characters.`;
  else if (draft.type === 'phoneme') {
    const wrong = phonemeProblem(draft.alphabet, value);
    if (wrong) problems.value = wrong;
  }
  if (problems.word || problems.value) return { problems };
  const flags = { case_sensitive: draft.caseSensitive, word_boundaries: draft.wordBoundaries };
  return {
    rule:
      draft.type === 'alias'
        ? { type: 'alias', string_to_replace: word, alias: value, ...flags }
        : { type: 'phoneme', string_to_replace: word, phoneme: value, alphabet: draft.alphabet, ...flags },
  };
}

/** How a rule reads in the list: what is said instead. */
export function ruleSays(rule: PronunciationRule): string {
  return rule.type === 'alias' ? rule.alias : `/${rule.phoneme}/`;
}

/** The alphabets' names as the page shows them. */
export const ALPHABET_LABELS: Record<PhonemeAlphabet, string> = { ipa: 'IPA', 'cmu-arpabet': 'CMU ARPAbet' };

/** The flags a rule was given, as short words; a flag left unset is not shown (the engines' default). */
export function ruleFlags(rule: PronunciationRule): string[] {
  return [
    ...(rule.case_sensitive === true ? ['case sensitive'] : []),
    ...(rule.case_sensitive === false ? ['any case'] : []),
    ...(rule.word_boundaries === true ? ['whole words'] : []),
    ...(rule.word_boundaries === false ? ['inside words too'] : []),
  ];
}
