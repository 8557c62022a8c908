import { z } from 'zod';

/**
 * The dubbing language list (history/voices §9 "Dubbing: 29 languages"; the codes and their order are the
 * public documentation's, research/el-facts.md §5): ISO 639-1 codes, `fil` (Filipino) being the one
 * three-letter code the public API uses for it.
 */
export const DUBBING_LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'hi', name: 'Hindi' },
  { code: 'pt', name: 'Portuguese' },
  { code: 'zh', name: 'Chinese' },
  { code: 'es', name: 'Spanish' },
  { code: 'fr', name: 'French' },
  { code: 'de', name: 'German' },
  { code: 'ja', name: 'Japanese' },
  { code: 'ar', name: 'Arabic' },
  { code: 'ru', name: 'Russian' },
  { code: 'ko', name: 'Korean' },
  { code: 'id', name: 'Indonesian' },
  { code: 'it', name: 'Italian' },
  { code: 'nl', name: 'Dutch' },
  { code: 'tr', name: 'Turkish' },
  { code: 'pl', name: 'Polish' },
  { code: 'sv', name: 'Swedish' },
  { code: 'fil', name: 'Filipino' },
  { code: 'ms', name: 'Malay' },
  { code: 'ro', name: 'Romanian' },
  { code: 'uk', name: 'Ukrainian' },
  { code: 'el', name: 'Greek' },
  { code: 'cs', name: 'Czech' },
  { code: 'da', name: 'Danish' },
  { code: 'fi', name: 'Finnish' },
  { code: 'bg', name: 'Bulgarian' },
  { code: 'hr', name: 'Croatian' },
  { code: 'sk', name: 'Slovak' },
  { code: 'ta', name: 'Tamil' },
] as const satisfies readonly { code: string; name: string }[];

export type DubbingLanguageCode = (typeof DUBBING_LANGUAGES)[number]['code'];

export const DUBBING_LANGUAGE_CODES = DUBBING_LANGUAGES.map((l) => l.code) as [
  DubbingLanguageCode,
  ...DubbingLanguageCode[],
];

/** One of the 29 codes (`z.enum`, so a wrong code is a validation error that lists the right ones). */
export const DubbingLanguageCode = z.enum(DUBBING_LANGUAGE_CODES);

/** The entry of a code, case-insensitively; undefined when it is not one of the 29. */
export function findDubbingLanguage(
  code: string | null | undefined,
): (typeof DUBBING_LANGUAGES)[number] | undefined {
  if (!code) return undefined;
  const key = code.trim().toLowerCase();
  return DUBBING_LANGUAGES.find((l) => l.code === key);
}

/**
 * How this installation translates English into a language:
 * - `offline`: Apertium on this machine, one pair (for English itself: nothing to translate);
 * - `offline_pivot`: Apertium on this machine through other languages (`pivot` names them);
 * - `server`: a translation server the operator configured (LibreTranslate or an OpenAI-compatible chat model);
 * - `none`: this installation cannot translate into it (the user can still type the translation in the editor).
 */
export const TranslationKind = z.enum(['offline', 'offline_pivot', 'server', 'none']);
export type TranslationKind = z.infer<typeof TranslationKind>;

/** One dubbing language with what this installation can do with it now (the new-dub dialog's list). */
export const DubbingLanguageCapability = z
  .object({
    code: DubbingLanguageCode,
    /** English name. */
    name: z.string(),
    /** Speech in it can be transcribed (a source language). */
    can_transcribe: z.boolean(),
    /** English can be translated into it (`translation` says how). */
    can_translate_from_english: z.boolean(),
    /** A voice of this installation speaks it (a target language). */
    can_speak: z.boolean(),
    translation: TranslationKind,
    /** The languages an offline translation from English passes through, in order (e.g. `["es"]` for pt). */
    pivot: z.array(z.string()),
  })
  .meta({ id: 'DubbingLanguageCapability' });
export type DubbingLanguageCapability = z.infer<typeof DubbingLanguageCapability>;
