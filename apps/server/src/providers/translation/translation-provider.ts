/**
 * The translation port (issue 29, dubbing): texts from one language into another, as a batch. Adapters:
 * Apertium on this machine (`apertium-translation.ts`, offline, a few language pairs, some through a
 * pivot), a LibreTranslate server (`libretranslate-translation.ts`) and an OpenAI-compatible chat model
 * (`openai-chat-translation.ts`), chosen per pair by `create-translation-provider.ts`. Languages are
 * the dubbing list's codes (ISO 639-1, and `fil`).
 */
import { DUBBING_LANGUAGES, type DubbingLanguageCapability } from '@parla/contracts';
import { AppError } from '../../platform/errors';

/** How a pair is translated: which adapter, through which languages, and whether it leaves the machine. */
export interface TranslationRoute {
  adapter: 'apertium' | 'libretranslate' | 'openai-chat';
  /** Source, the pivots in order, target: `["en", "es", "pt"]` is English to Portuguese through Spanish. */
  languages: string[];
  /** Translated on this machine (Apertium); false when a server does it. */
  offline: boolean;
}

export interface TranslationInput {
  texts: string[];
  source: string;
  target: string;
  signal?: AbortSignal;
}

export interface TranslationProvider {
  /** How this installation translates the pair; null when it cannot. */
  route(source: string, target: string): TranslationRoute | null;
  /**
   * The texts translated, as many as given and in their order; an empty (or blank) text stays as it is.
   * Throws an AppError: `translation_unavailable` when there is no route, `translation_failed` when the
   * adapter failed or answered wrongly.
   */
  translate(input: TranslationInput): Promise<{ texts: string[]; route: TranslationRoute }>;
  /**
   * Learns what the configured servers translate (LibreTranslate's language list), so `route` answers for
   * them exactly; until it has run, a server adapter is taken to translate every pair. Never throws.
   */
  prepare?(): Promise<void>;
}

/** One adapter as the composite provider sees it: the same port, named. */
export interface TranslationAdapter extends TranslationProvider {
  readonly name: TranslationRoute['adapter'];
}

/** The English name of a code for messages, else the code itself. */
export function languageLabel(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** "Parla cannot translate from English to German on this installation: …" */
export function translationUnavailable(source: string, target: string, why: string): AppError {
  return new AppError(
    'translation_unavailable',
    `Parla cannot translate from ${languageLabel(source)} to ${languageLabel(target)} on this installation: ${why}`,
  );
}

/** "Translating from English to Spanish failed: …" */
export function translationFailed(source: string, target: string, why: string, cause?: unknown): AppError {
  return new AppError(
    'translation_failed',
    `Translating from ${languageLabel(source)} to ${languageLabel(target)} failed: ${why}`,
    { cause },
  );
}

/** A cancelled translation: the caller's signal fired. */
export function translationAborted(): AppError {
  return new AppError('service_unavailable', 'The translation was cancelled.');
}

/** Whether a text has nothing to translate (empty or only white space): such texts are passed through. */
export function isBlank(text: string): boolean {
  return text.trim() === '';
}

/**
 * Runs `translate` on the non-blank texts only and puts the results back in place: adapters then never
 * see an empty segment (Apertium would drop the line, a chat model would be confused by it).
 */
export async function translateNonBlank(
  texts: string[],
  translate: (texts: string[]) => Promise<string[]>,
): Promise<string[]> {
  const at: number[] = [];
  const work: string[] = [];
  texts.forEach((text, i) => {
    if (!isBlank(text)) {
      at.push(i);
      work.push(text);
    }
  });
  const out = [...texts];
  if (work.length === 0) return out;
  const done = await translate(work);
  if (done.length !== work.length)
    throw new Error(`${done.length} translations came back for ${work.length} texts`);
  done.forEach((text, k) => {
    out[at[k] as number] = text;
  });
  return out;
}

/**
 * The dubbing language list with what this installation can do now (issue 29: "the language list shows
 * the spec's 29 dubbing languages and marks which ones this installation can do"). Translation is judged
 * from English; transcription and speech are the caller's to say (the speech-to-text and text-to-speech
 * providers know them). English itself needs no translation: `offline`, no pivot.
 */
export function dubbingLanguageCapabilities(
  translation: Pick<TranslationProvider, 'route'>,
  can: { transcribe: (code: string) => boolean; speak: (code: string) => boolean },
): DubbingLanguageCapability[] {
  return DUBBING_LANGUAGES.map(({ code, name }) => {
    const route = code === 'en' ? null : translation.route('en', code);
    const kind: DubbingLanguageCapability['translation'] =
      code === 'en'
        ? 'offline'
        : !route
          ? 'none'
          : route.adapter !== 'apertium'
            ? 'server'
            : route.languages.length > 2
              ? 'offline_pivot'
              : 'offline';
    return {
      code,
      name,
      can_transcribe: can.transcribe(code),
      can_translate_from_english: kind !== 'none',
      can_speak: can.speak(code),
      translation: kind,
      pivot: route?.adapter === 'apertium' ? route.languages.slice(1, -1) : [],
    };
  });
}
