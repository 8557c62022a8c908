/**
 * A LibreTranslate server (TRANSLATION_LIBRETRANSLATE_URL; self-hosted, Argos models): `POST {url}/translate`
 * with `q` as an array, which answers `translatedText` as an array in the same order, and
 * `GET {url}/languages` (`[{code, name, targets}]`), read once, for which pairs it has.
 */
import { getJson, HttpJsonError, postJson } from './http-json';
import {
  type TranslationAdapter,
  type TranslationInput,
  type TranslationRoute,
  translateNonBlank,
  translationAborted,
  translationFailed,
  translationUnavailable,
} from './translation-provider';

export interface LibreTranslateOptions {
  /** The server's base URL, without a trailing slash. */
  url: string;
  apiKey: string | undefined;
  timeoutMs: number;
}

/**
 * The codes a LibreTranslate server may use for a dubbing language that is not its own ISO 639-1 code:
 * Chinese is `zh` on older servers and `zh-Hans` on newer ones; Filipino is Argos's Tagalog, `tl`.
 */
const SERVER_CODES: Readonly<Record<string, readonly string[]>> = {
  zh: ['zh', 'zh-Hans', 'zh-CN'],
  fil: ['tl', 'fil'],
};

/** How long a failed read of the language list is not tried again. */
const LANGUAGES_RETRY_MS = 60_000;

/** Texts per request: bounded so one request stays well within the server's and our time limits. */
export const LIBRETRANSLATE_BATCH = 50;

export class LibreTranslateTranslation implements TranslationAdapter {
  readonly name = 'libretranslate' as const;
  /** The server's languages and their targets, once read; undefined: not read (every pair is tried). */
  private languages: Map<string, Set<string>> | undefined;
  private preparing: Promise<void> | undefined;
  /** When reading the list last failed: it is not asked again for a minute (each translation would wait). */
  private failedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: LibreTranslateOptions) {}

  prepare(): Promise<void> {
    if (!this.preparing && Date.now() - this.failedAt < LANGUAGES_RETRY_MS) return Promise.resolve();
    this.preparing ??= (async () => {
      try {
        const body = await getJson(`${this.options.url}/languages`, {
          // A short list: a server that takes longer is down or overloaded, and the translation says so.
          timeoutMs: Math.min(this.options.timeoutMs, 10_000),
          what: 'The LibreTranslate server',
        });
        if (!Array.isArray(body)) return;
        const languages = new Map<string, Set<string>>();
        for (const entry of body as { code?: unknown; targets?: unknown }[]) {
          if (typeof entry?.code !== 'string') continue;
          const targets = Array.isArray(entry.targets)
            ? entry.targets.filter((t): t is string => typeof t === 'string')
            : [];
          languages.set(entry.code, new Set(targets));
        }
        if (languages.size > 0) this.languages = languages;
      } catch {
        // Unreachable for now: every pair is tried, and a translation says what failed.
        this.preparing = undefined;
        this.failedAt = Date.now();
      }
    })();
    return this.preparing;
  }

  /** The server's code for a language: its own when the list is known, else the first usual one. */
  private serverCode(code: string): string | undefined {
    const candidates = SERVER_CODES[code] ?? [code];
    const languages = this.languages;
    if (!languages) return candidates[0];
    // A language may be listed only as some language's target.
    return candidates.find((c) => languages.has(c) || [...languages.values()].some((t) => t.has(c)));
  }

  route(source: string, target: string): TranslationRoute | null {
    if (source === target) return null;
    const from = this.serverCode(source);
    const to = this.serverCode(target);
    if (!from || !to) return null;
    if (this.languages && !this.languages.get(from)?.has(to)) return null;
    return { adapter: 'libretranslate', languages: [source, target], offline: false };
  }

  async translate(input: TranslationInput): Promise<{ texts: string[]; route: TranslationRoute }> {
    const { source, target, signal } = input;
    await this.prepare();
    const route = this.route(source, target);
    const from = this.serverCode(source);
    const to = this.serverCode(target);
    if (!route || !from || !to)
      throw translationUnavailable(source, target, 'the LibreTranslate server does not offer this pair.');
    const texts = await translateNonBlank(input.texts, async (work) => {
      const out: string[] = [];
      for (let at = 0; at < work.length; at += LIBRETRANSLATE_BATCH) {
        const q = work.slice(at, at + LIBRETRANSLATE_BATCH);
        out.push(...(await this.request(q, from, to, signal, source, target)));
      }
      return out;
    });
    return { texts, route };
  }

  private async request(
    q: string[],
    from: string,
    to: string,
    signal: AbortSignal | undefined,
    source: string,
    target: string,
  ): Promise<string[]> {
    let body: unknown;
    try {
      body = await postJson(
        `${this.options.url}/translate`,
        {
          q,
          source: from,
          target: to,
          format: 'text',
          ...(this.options.apiKey ? { api_key: this.options.apiKey } : {}),
        },
        { timeoutMs: this.options.timeoutMs, signal, what: 'The LibreTranslate server' },
      );
    } catch (error) {
      if (error instanceof HttpJsonError && error.aborted) throw translationAborted();
      throw translationFailed(source, target, error instanceof Error ? error.message : String(error), error);
    }
    const translated = (body as { translatedText?: unknown } | null)?.translatedText;
    if (
      !Array.isArray(translated) ||
      translated.length !== q.length ||
      !translated.every((t) => typeof t === 'string')
    )
      throw translationFailed(
        source,
        target,
        `the LibreTranslate server answered ${Array.isArray(translated) ? `${translated.length} text(s)` : 'no list of texts'} for ${q.length}.`,
      );
    return translated as string[];
  }
}
