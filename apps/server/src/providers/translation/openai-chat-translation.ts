/**
 * An OpenAI-compatible chat model as translator (TRANSLATION_OPENAI_URL, else the agents' LLM_OPENAI_URL):
 * `POST {url}/chat/completions`, not streamed, asked for a JSON object `{"translations": [...]}` of exactly
 * as many strings as it was given (an object, because `response_format: json_object` — which Ollama,
 * llama.cpp's server, vLLM and OpenAI honour — cannot ask for a bare array; a bare array is accepted too).
 * A chunk whose answer has the wrong count or shape is asked again once, then text by text, so the count
 * always comes back right or the translation fails.
 */
import { HttpJsonError, postJson } from './http-json';
import {
  languageLabel,
  type TranslationAdapter,
  type TranslationInput,
  type TranslationRoute,
  translateNonBlank,
  translationAborted,
  translationFailed,
} from './translation-provider';

export interface OpenAiChatTranslationOptions {
  /** The API's base URL, `/v1` included, without a trailing slash. */
  url: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

/** Texts per request: a model keeps the count reliably over a few dozen short lines, less over hundreds. */
export const CHAT_BATCH = 40;

/** The instructions: one translation per element, nothing merged or split, roughly the same spoken length. */
export function chatMessages(
  texts: string[],
  source: string,
  target: string,
): { role: string; content: string }[] {
  return [
    {
      role: 'system',
      content:
        `You translate dialogue for dubbing from ${languageLabel(source)} (${source}) to ${languageLabel(target)} (${target}). ` +
        `The user sends a JSON object {"n": N, "segments": [N strings]}. Answer with only a JSON object ` +
        `{"translations": [N strings]} where element i is the translation of segment i. Never merge, split, ` +
        'drop or add elements. Keep names, numbers and the tone of the speaker; make each translation about as ' +
        'long to say as its segment. No comments, no notes.',
    },
    { role: 'user', content: JSON.stringify({ n: texts.length, segments: texts }) },
  ];
}

/**
 * The translations in a model's answer, or null when it is not N strings: the JSON object (or array),
 * also when wrapped in a code fence or after a `<think>` block.
 */
export function parseChatTranslations(content: string, n: number): string[] | null {
  let text = content.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  const fenced = text.match(/^```(?:json)?\s*([\s\S]*?)\s*```$/);
  if (fenced) text = fenced[1] as string;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const list = Array.isArray(value)
    ? value
    : value && typeof value === 'object'
      ? ((value as { translations?: unknown }).translations ?? (value as { segments?: unknown }).segments)
      : undefined;
  if (!Array.isArray(list) || list.length !== n || !list.every((t) => typeof t === 'string')) return null;
  return list.map((t: string) => t.trim());
}

export class OpenAiChatTranslation implements TranslationAdapter {
  readonly name = 'openai-chat' as const;
  /**
   * The server refused `response_format: json_object` once (LM Studio takes json_schema only; older
   * servers know neither): ask without it from then on — the prompt asks for JSON all the same.
   */
  private withoutFormat = false;

  constructor(private readonly options: OpenAiChatTranslationOptions) {}

  /** A general model: any pair of different languages (its quality is the model's). */
  route(source: string, target: string): TranslationRoute | null {
    if (source === target) return null;
    return { adapter: 'openai-chat', languages: [source, target], offline: false };
  }

  async translate(input: TranslationInput): Promise<{ texts: string[]; route: TranslationRoute }> {
    const { source, target, signal } = input;
    const route = this.route(source, target) as TranslationRoute;
    const texts = await translateNonBlank(input.texts, async (work) => {
      const out: string[] = [];
      for (let at = 0; at < work.length; at += CHAT_BATCH) {
        out.push(...(await this.chunk(work.slice(at, at + CHAT_BATCH), source, target, signal)));
      }
      return out;
    });
    return { texts, route };
  }

  /** A chunk, asked twice; then each of its texts alone. */
  private async chunk(
    texts: string[],
    source: string,
    target: string,
    signal?: AbortSignal,
  ): Promise<string[]> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const parsed = parseChatTranslations(await this.ask(texts, source, target, signal), texts.length);
      if (parsed) return parsed;
    }
    if (texts.length === 1)
      throw translationFailed(
        source,
        target,
        `the model ${this.options.model} did not answer a JSON list of one translation, twice.`,
      );
    const out: string[] = [];
    for (const text of texts) out.push(...(await this.chunk([text], source, target, signal)));
    return out;
  }

  private async ask(texts: string[], source: string, target: string, signal?: AbortSignal): Promise<string> {
    const post = (withFormat: boolean) =>
      postJson(
        `${this.options.url}/chat/completions`,
        {
          model: this.options.model,
          messages: chatMessages(texts, source, target),
          temperature: 0.2,
          ...(withFormat ? { response_format: { type: 'json_object' } } : {}),
          stream: false,
        },
        {
          headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
          timeoutMs: this.options.timeoutMs,
          signal,
          what: 'The translation model server',
        },
      );
    let body: unknown;
    try {
      try {
        body = await post(!this.withoutFormat);
      } catch (error) {
        const refusedFormat =
          !this.withoutFormat &&
          error instanceof HttpJsonError &&
          (error.status === 400 || error.status === 422) &&
          /response_format|json_object|json_schema/i.test(error.message);
        if (!refusedFormat) throw error;
        this.withoutFormat = true;
        body = await post(false);
      }
    } catch (error) {
      if (error instanceof HttpJsonError && error.aborted) throw translationAborted();
      throw translationFailed(source, target, error instanceof Error ? error.message : String(error), error);
    }
    const content = (body as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]
      ?.message?.content;
    if (typeof content !== 'string')
      throw translationFailed(source, target, 'the translation model server answered no message content.');
    return content;
  }
}
