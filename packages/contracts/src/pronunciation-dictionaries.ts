import { z } from 'zod';

/*
 * Pronunciation dictionaries (issue 30; history/voices §3 Workspace `pronunciation_dictionary_locators`).
 * The rule and locator shapes are shared by the dictionaries' own calls, text to speech, dialogue, the TTS
 * sockets, Studio and Audio Native. Wire names are snake_case, as `pronunciationDictionaries` of
 * `@elevenlabs/elevenlabs-js` sends them.
 */

/** The most dictionaries one request may name (the public API's limit). */
export const MAX_PRONUNCIATION_LOCATORS = 3;
/** The longest word or phrase a rule replaces. */
export const MAX_RULE_STRING_CHARS = 200;
/** The longest alias or pronunciation of a rule. */
export const MAX_RULE_VALUE_CHARS = 400;

/** The phoneme alphabets a rule may use: IPA, or the CMU pronouncing dictionary's ARPAbet. */
export const PHONEME_ALPHABETS = ['ipa', 'cmu-arpabet'] as const;
export type PhonemeAlphabet = (typeof PHONEME_ALPHABETS)[number];

const ruleString = z.string().trim().min(1, 'The text to replace is empty.').max(MAX_RULE_STRING_CHARS);

/** A rule that says a word or phrase as other words (`alias`). */
export const PronunciationAliasRule = z.object({
  type: z.literal('alias'),
  string_to_replace: ruleString,
  alias: z.string().trim().min(1, 'The alias is empty.').max(MAX_RULE_VALUE_CHARS),
  case_sensitive: z.boolean().nullish(),
  word_boundaries: z.boolean().nullish(),
});
export type PronunciationAliasRule = z.infer<typeof PronunciationAliasRule>;

/** A rule that says a word or phrase as the given phonemes. */
export const PronunciationPhonemeRule = z.object({
  type: z.literal('phoneme'),
  string_to_replace: ruleString,
  phoneme: z.string().trim().min(1, 'The pronunciation is empty.').max(MAX_RULE_VALUE_CHARS),
  alphabet: z.enum(PHONEME_ALPHABETS),
  case_sensitive: z.boolean().nullish(),
  word_boundaries: z.boolean().nullish(),
});
export type PronunciationPhonemeRule = z.infer<typeof PronunciationPhonemeRule>;

export const PronunciationRule = z.discriminatedUnion('type', [
  PronunciationAliasRule,
  PronunciationPhonemeRule,
]);
export type PronunciationRule = z.infer<typeof PronunciationRule>;

/** Names a dictionary, at a version or (no `version_id`) at its latest. */
export const PronunciationDictionaryLocator = z.object({
  pronunciation_dictionary_id: z.string().min(1).max(100),
  version_id: z.string().min(1).max(100).nullish(),
});
export type PronunciationDictionaryLocator = z.infer<typeof PronunciationDictionaryLocator>;

export const PronunciationDictionaryLocators = z
  .array(PronunciationDictionaryLocator)
  .max(
    MAX_PRONUNCIATION_LOCATORS,
    `A request may name at most ${MAX_PRONUNCIATION_LOCATORS} pronunciation dictionaries.`,
  );
