import { z } from 'zod';
import { defineRoute } from './routes';

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

/** The ARPAbet phones of the CMU pronouncing dictionary; vowels may carry a stress digit 0, 1 or 2. */
export const ARPABET_PHONES: ReadonlySet<string> = new Set(
  'AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH'.split(
    ' ',
  ),
);
/**
 * IPA as written in pronunciations (tested on the NFD form): Latin and IPA letters, Greek θ β χ, combining
 * diacritics, stress and length marks, tie bars, syllable dots and spaces.
 */
export const IPA_PRONUNCIATION = /^(?:[a-zA-Zæçðøħŋœɐ-ʯβθχᵻˈˌːˑ‿.ʰʲʷˠˤ -]|\p{M})+$/u;

/** What is wrong with a pronunciation in an alphabet, as a sentence for the user; undefined when nothing. */
export function phonemeProblem(alphabet: string, phoneme: string): string | undefined {
  const name = alphabet.toLowerCase();
  if (name === 'cmu-arpabet') {
    const wrong = phoneme
      .trim()
      .split(/\s+/)
      .find((phone) => !ARPABET_PHONES.has(phone.toUpperCase().replace(/[012]$/, '')));
    return wrong === undefined
      ? undefined
      : `"${wrong.slice(0, 10)}" is not a CMU ARPAbet phone (write phones such as "T AH0 M EY1 T OW2").`;
  }
  if (name === 'ipa')
    return IPA_PRONUNCIATION.test(phoneme.normalize('NFD'))
      ? undefined
      : `The pronunciation "${phoneme.slice(0, 20)}" has characters that are not IPA.`;
  return `The phoneme alphabet "${alphabet.slice(0, 20)}" is not supported: use "ipa" or "cmu-arpabet".`;
}

// ——— The dictionaries' own calls (the SDK's `pronunciationDictionaries`) ———

/** The most rules one dictionary holds (a version's rules; add-rules past it is refused). */
export const MAX_DICTIONARY_RULES = 1000;
/** The largest PLS lexicon `add-from-file` takes (a 1,000-rule lexicon is about 150 KB). */
export const MAX_PLS_BYTES = 1024 * 1024;
/** The most dictionaries one workspace keeps (archived ones count). */
export const MAX_WORKSPACE_DICTIONARIES = 500;
export const MAX_DICTIONARY_NAME_CHARS = 200;
export const MAX_DICTIONARY_DESCRIPTION_CHARS = 2000;

/** Who in the workspace may use a dictionary (accepted and kept; every member reads and edits in Parla). */
export const DICTIONARY_WORKSPACE_ACCESS = ['admin', 'editor', 'commenter', 'viewer'] as const;

/** A list of rules, each phoneme rule's pronunciation checked against its alphabet. */
export const PronunciationRules = z
  .array(PronunciationRule)
  .max(MAX_DICTIONARY_RULES, `A dictionary holds at most ${MAX_DICTIONARY_RULES.toLocaleString('en')} rules.`)
  .superRefine((rules, ctx) => {
    for (const [index, rule] of rules.entries()) {
      if (rule.type !== 'phoneme') continue;
      const problem = phonemeProblem(rule.alphabet, rule.phoneme);
      if (problem) ctx.addIssue({ code: 'custom', path: [index, 'phoneme'], message: problem });
    }
  });

const DictionaryName = z
  .string()
  .trim()
  .min(1, 'Give the dictionary a name.')
  .max(MAX_DICTIONARY_NAME_CHARS, `A name is at most ${MAX_DICTIONARY_NAME_CHARS} characters.`);
const DictionaryDescription = z
  .string()
  .max(
    MAX_DICTIONARY_DESCRIPTION_CHARS,
    `A description is at most ${MAX_DICTIONARY_DESCRIPTION_CHARS.toLocaleString('en')} characters.`,
  );

/** `POST /v1/pronunciation-dictionaries/add-from-rules`. */
export const AddDictionaryFromRulesRequest = z.object({
  rules: PronunciationRules,
  name: DictionaryName,
  description: DictionaryDescription.nullish(),
  workspace_access: z.enum(DICTIONARY_WORKSPACE_ACCESS).nullish(),
});
export type AddDictionaryFromRulesRequest = z.infer<typeof AddDictionaryFromRulesRequest>;

/** The text fields of the multipart `POST /v1/pronunciation-dictionaries/add-from-file` (the lexicon is `file`). */
export const AddDictionaryFromFileFields = z.object({
  name: DictionaryName,
  description: DictionaryDescription.optional(),
  workspace_access: z.enum(DICTIONARY_WORKSPACE_ACCESS).optional(),
});

/** `PATCH /v1/pronunciation-dictionaries/{id}`. */
export const UpdateDictionaryRequest = z.object({
  name: DictionaryName.nullish(),
  archived: z.boolean().nullish(),
});
export type UpdateDictionaryRequest = z.infer<typeof UpdateDictionaryRequest>;

/** `add-rules` and `set-rules`. */
export const DictionaryRulesRequest = z.object({ rules: PronunciationRules });
/** `remove-rules`: every rule whose `string_to_replace` is one of these goes. */
export const RemoveDictionaryRulesRequest = z.object({
  // Trimmed as the rules' own strings are when stored, so " UN" removes the rule for "UN".
  rule_strings: z.array(z.string().trim().max(MAX_RULE_STRING_CHARS)).min(1).max(MAX_DICTIONARY_RULES),
});

const access = z.enum(DICTIONARY_WORKSPACE_ACCESS);

/** `AddPronunciationDictionaryResponseModel`. */
export const AddDictionaryResponse = z.object({
  id: z.string(),
  name: z.string(),
  created_by: z.string(),
  creation_time_unix: z.number().int(),
  version_id: z.string(),
  version_rules_num: z.number().int(),
  description: z.string().nullable(),
  permission_on_resource: access.nullable(),
});
export type AddDictionaryResponse = z.infer<typeof AddDictionaryResponse>;

/** `GetPronunciationDictionaryMetadataResponse`. */
export const DictionaryMetadata = z.object({
  id: z.string(),
  latest_version_id: z.string(),
  latest_version_rules_num: z.number().int(),
  name: z.string(),
  permission_on_resource: access.nullable(),
  created_by: z.string(),
  creation_time_unix: z.number().int(),
  archived_time_unix: z.number().int().nullable(),
  description: z.string().nullable(),
});
export type DictionaryMetadata = z.infer<typeof DictionaryMetadata>;

/** `GetPronunciationDictionaryWithRulesResponseModel`: the metadata and the latest version's rules. */
export const DictionaryWithRules = DictionaryMetadata.extend({ rules: z.array(PronunciationRule) });
export type DictionaryWithRules = z.infer<typeof DictionaryWithRules>;

/** `GetPronunciationDictionariesMetadataResponseModel`. */
export const ListDictionariesResponse = z.object({
  pronunciation_dictionaries: z.array(DictionaryMetadata),
  next_cursor: z.string().nullable(),
  has_more: z.boolean(),
});
export type ListDictionariesResponse = z.infer<typeof ListDictionariesResponse>;

/** `PronunciationDictionaryRulesResponseModel`: the new version a change of rules made. */
export const DictionaryRulesResponse = z.object({
  id: z.string(),
  version_id: z.string(),
  version_rules_num: z.number().int(),
});
export type DictionaryRulesResponse = z.infer<typeof DictionaryRulesResponse>;

export const DICTIONARY_SORTS = ['creation_time_unix', 'name'] as const;

export const ListDictionariesQuery = z.object({
  cursor: z.string().max(200).optional(),
  page_size: z.coerce.number().int().min(1).max(100).default(30),
  sort: z.enum(DICTIONARY_SORTS).default('creation_time_unix'),
  /** `asc`/`desc` or `ascending`/`descending`, in any case (the SDK sends a free string). */
  sort_direction: z
    .string()
    .max(20)
    .transform((v) => v.trim().toLowerCase())
    .pipe(z.enum(['asc', 'desc', 'ascending', 'descending']))
    .default('descending'),
  include_archived: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});
export type ListDictionariesQuery = z.infer<typeof ListDictionariesQuery>;

/**
 * The workspace's default dictionaries (accounts §3 Workspace `pronunciation_dictionary_locators`): used by
 * a request that names none. Parla's own call: the public API has no workspace call for it.
 */
export const WorkspaceDictionariesBody = z.object({
  pronunciation_dictionary_locators: PronunciationDictionaryLocators,
});
export type WorkspaceDictionariesBody = z.infer<typeof WorkspaceDictionariesBody>;

const tags = ['pronunciation-dictionaries'] as const;
const dictionaryParams = z.object({ pronunciation_dictionary_id: z.string().max(100) });

export const addDictionaryFromFileRoute = defineRoute({
  method: 'POST',
  path: '/v1/pronunciation-dictionaries/add-from-file',
  summary: 'Add a dictionary from a PLS lexicon (multipart: name, file, description, workspace_access)',
  tags,
  response: AddDictionaryResponse,
});

export const addDictionaryFromRulesRoute = defineRoute({
  method: 'POST',
  path: '/v1/pronunciation-dictionaries/add-from-rules',
  summary: 'Add a dictionary from a list of rules',
  tags,
  body: AddDictionaryFromRulesRequest,
  response: AddDictionaryResponse,
});

export const listDictionariesRoute = defineRoute({
  method: 'GET',
  path: '/v1/pronunciation-dictionaries',
  summary: 'The workspace’s dictionaries, a page at a time',
  tags,
  query: ListDictionariesQuery,
  response: ListDictionariesResponse,
});

export const getDictionaryRoute = defineRoute({
  method: 'GET',
  path: '/v1/pronunciation-dictionaries/:pronunciation_dictionary_id',
  summary: 'A dictionary with its latest version’s rules',
  tags,
  params: dictionaryParams,
  response: DictionaryWithRules,
});

export const updateDictionaryRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/pronunciation-dictionaries/:pronunciation_dictionary_id',
  summary: 'Rename or archive a dictionary',
  tags,
  params: dictionaryParams,
  body: UpdateDictionaryRequest,
  response: DictionaryMetadata,
});

export const addDictionaryRulesRoute = defineRoute({
  method: 'POST',
  path: '/v1/pronunciation-dictionaries/:pronunciation_dictionary_id/add-rules',
  summary: 'Add rules (a rule for a string already there replaces it): a new version',
  tags,
  params: dictionaryParams,
  body: DictionaryRulesRequest,
  response: DictionaryRulesResponse,
});

export const removeDictionaryRulesRoute = defineRoute({
  method: 'POST',
  path: '/v1/pronunciation-dictionaries/:pronunciation_dictionary_id/remove-rules',
  summary: 'Remove the rules of these strings: a new version',
  tags,
  params: dictionaryParams,
  body: RemoveDictionaryRulesRequest,
  response: DictionaryRulesResponse,
});

export const setDictionaryRulesRoute = defineRoute({
  method: 'POST',
  path: '/v1/pronunciation-dictionaries/:pronunciation_dictionary_id/set-rules',
  summary: 'Replace every rule: a new version',
  tags,
  params: dictionaryParams,
  body: DictionaryRulesRequest,
  response: DictionaryRulesResponse,
});

export const downloadDictionaryVersionRoute = defineRoute({
  method: 'GET',
  // The SDK's `{dictionary_id}`, named like the other routes' segment (one name per position of the path).
  path: '/v1/pronunciation-dictionaries/:pronunciation_dictionary_id/:version_id/download',
  summary: 'A version of a dictionary as a PLS lexicon (application/pls+xml)',
  tags,
  params: dictionaryParams.extend({ version_id: z.string().max(100) }),
  response: z.string().meta({ description: 'application/pls+xml' }),
});

export const getWorkspaceDictionariesRoute = defineRoute({
  method: 'GET',
  path: '/v1/workspace/pronunciation-dictionaries',
  summary: 'The dictionaries a request uses when it names none (Parla)',
  tags,
  response: WorkspaceDictionariesBody,
});

export const setWorkspaceDictionariesRoute = defineRoute({
  method: 'PUT',
  path: '/v1/workspace/pronunciation-dictionaries',
  summary: 'Choose the dictionaries a request uses when it names none (Parla)',
  tags,
  body: WorkspaceDictionariesBody,
  response: WorkspaceDictionariesBody,
});
