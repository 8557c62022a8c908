/**
 * Chooses the translation adapter per pair (issue 29): Apertium on this machine where it has the pair,
 * directly and then through Spanish; else the configured servers, LibreTranslate first, then the chat
 * model. TRANSLATION_PREFER=server puts the servers first (their quality is usually better than
 * Apertium's, above all through a pivot), Apertium then serving only what they cannot.
 */
import type { Config } from '../../config';
import { ApertiumTranslation } from './apertium-translation';
import { LibreTranslateTranslation } from './libretranslate-translation';
import { OpenAiChatTranslation } from './openai-chat-translation';
import {
  type TranslationAdapter,
  type TranslationInput,
  type TranslationProvider,
  type TranslationRoute,
  translationUnavailable,
} from './translation-provider';

/** Codes as the dubbing list writes them: lower case, no surrounding space. */
function normalise(code: string): string {
  return code.trim().toLowerCase();
}

export class CompositeTranslation implements TranslationProvider {
  /** @param adapters in order of preference */
  constructor(readonly adapters: readonly TranslationAdapter[]) {}

  route(source: string, target: string): TranslationRoute | null {
    return this.pick(normalise(source), normalise(target))?.route ?? null;
  }

  private pick(
    source: string,
    target: string,
  ): { adapter: TranslationAdapter; route: TranslationRoute } | null {
    if (source === target) return null;
    for (const adapter of this.adapters) {
      const route = adapter.route(source, target);
      if (route) return { adapter, route };
    }
    return null;
  }

  async translate(input: TranslationInput): Promise<{ texts: string[]; route: TranslationRoute }> {
    const source = normalise(input.source);
    const target = normalise(input.target);
    if (source === target)
      throw translationUnavailable(source, target, 'the source and the target are the same language.');
    let picked = this.pick(source, target);
    // A server's language list is read (once) before a server is chosen; Apertium's pairs need no asking.
    if (!picked || picked.adapter.prepare) {
      await this.prepare();
      picked = this.pick(source, target);
    }
    if (!picked) throw translationUnavailable(source, target, this.whyNot());
    return picked.adapter.translate({ ...input, source, target });
  }

  async prepare(): Promise<void> {
    await Promise.all(this.adapters.map((a) => a.prepare?.()));
  }

  /** What would give the pair a route. */
  private whyNot(): string {
    const names = this.adapters.map((a) => a.name);
    const servers = names.filter((n) => n !== 'apertium');
    const offline = names.includes('apertium')
      ? 'Apertium has no pair for it here, directly or through Spanish'
      : 'Apertium is not installed';
    return servers.length === 0
      ? `${offline}, and no translation server is configured (TRANSLATION_LIBRETRANSLATE_URL or TRANSLATION_OPENAI_URL).`
      : `${offline}, and the configured translation server (${servers.join(', ')}) does not offer it.`;
  }
}

/** The provider from the config, once, at start-up (providers/index.ts). */
export function createTranslationProvider(
  config: Pick<Config, 'translation'>,
  parts: { apertiumModesDir?: string } = {},
): TranslationProvider {
  const { translation } = config;
  const apertium = new ApertiumTranslation({
    modesDir: parts.apertiumModesDir,
    timeoutMs: translation.timeoutMs,
  });
  const servers: TranslationAdapter[] = [];
  if (translation.libretranslate)
    servers.push(
      new LibreTranslateTranslation({ ...translation.libretranslate, timeoutMs: translation.timeoutMs }),
    );
  if (translation.openai)
    servers.push(new OpenAiChatTranslation({ ...translation.openai, timeoutMs: translation.timeoutMs }));
  const offline = apertium.available.size > 0 ? [apertium] : [];
  return new CompositeTranslation(
    translation.prefer === 'server' ? [...servers, ...offline] : [...offline, ...servers],
  );
}
