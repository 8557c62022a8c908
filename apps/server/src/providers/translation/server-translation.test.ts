import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApertiumTranslation } from './apertium-translation';
import { CompositeTranslation } from './create-translation-provider';
import { LibreTranslateTranslation } from './libretranslate-translation';
import { OpenAiChatTranslation, parseChatTranslations } from './openai-chat-translation';
import { dubbingLanguageCapabilities } from './translation-provider';

/**
 * The server adapters against small HTTP servers on 127.0.0.1 standing in for the other side of the wire:
 * what each adapter sends is recorded and checked, and the answers are the protocol's shapes.
 */
interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}
let seen: Seen[] = [];
let answer: (seen: Seen, res: ServerResponse) => void = (_s, res) => res.end('{}');
let server: ReturnType<typeof createServer>;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString();
    });
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      };
      seen.push(entry);
      res.setHeader('content-type', 'application/json');
      answer(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
});

/** LibreTranslate's answers: the language list, and each text "translated" by tagging it with the target. */
function libreTranslate(languages: { code: string; targets: string[] }[]) {
  return (s: Seen, res: ServerResponse) => {
    if (s.path === '/languages')
      return res.end(JSON.stringify(languages.map((l) => ({ ...l, name: l.code }))));
    const body = s.body as { q: string[]; target: string };
    res.end(JSON.stringify({ translatedText: body.q.map((q) => `[${body.target}] ${q}`) }));
  };
}

describe('LibreTranslate adapter', () => {
  it('posts the non-blank texts as one array with the key, and reads the pairs the server has', async () => {
    answer = libreTranslate([
      { code: 'en', targets: ['de', 'zh-Hans', 'tl'] },
      { code: 'de', targets: ['en'] },
    ]);
    const lt = new LibreTranslateTranslation({ url, apiKey: 'lt-key', timeoutMs: 5000 });
    // Before its list is read, every pair is taken to be there.
    expect(lt.route('en', 'ko')).not.toBeNull();
    const { texts, route } = await lt.translate({
      texts: ['Hello.', '', 'Good night.'],
      source: 'en',
      target: 'de',
    });
    expect(texts).toEqual(['[de] Hello.', '', '[de] Good night.']);
    expect(route).toEqual({ adapter: 'libretranslate', languages: ['en', 'de'], offline: false });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /languages', 'POST /translate']);
    expect(seen[1]?.body).toEqual({
      q: ['Hello.', 'Good night.'],
      source: 'en',
      target: 'de',
      format: 'text',
      api_key: 'lt-key',
    });
    expect(lt.route('en', 'ko')).toBeNull();
    expect(lt.route('de', 'en')).not.toBeNull();
    // The server's own codes for Chinese and Filipino.
    await lt.translate({ texts: ['Hi.'], source: 'en', target: 'zh' });
    await lt.translate({ texts: ['Hi.'], source: 'en', target: 'fil' });
    expect(seen.slice(2).map((s) => (s.body as { target: string }).target)).toEqual(['zh-Hans', 'tl']);
    await expect(lt.translate({ texts: ['Hi.'], source: 'en', target: 'ko' })).rejects.toMatchObject({
      code: 'translation_unavailable',
    });
  });

  it('fails clearly on a wrong count, an error status and an unreachable server', async () => {
    const lt = new LibreTranslateTranslation({ url, apiKey: undefined, timeoutMs: 5000 });
    answer = (s, res) =>
      res.end(s.path === '/languages' ? '[]' : JSON.stringify({ translatedText: ['one'] }));
    await expect(lt.translate({ texts: ['a.', 'b.'], source: 'en', target: 'de' })).rejects.toMatchObject({
      code: 'translation_failed',
      message:
        'Translating from English to German failed: the LibreTranslate server answered 1 text(s) for 2.',
    });
    expect(seen.at(-1)?.body).not.toHaveProperty('api_key');
    answer = (_s, res) => {
      res.statusCode = 403;
      res.end(JSON.stringify({ error: 'Invalid API key' }));
    };
    await expect(lt.translate({ texts: ['a.'], source: 'en', target: 'de' })).rejects.toMatchObject({
      code: 'translation_failed',
      message: expect.stringMatching(/answered 403: Invalid API key$/),
    });
    const gone = new LibreTranslateTranslation({
      url: 'http://127.0.0.1:1',
      apiKey: undefined,
      timeoutMs: 5000,
    });
    await expect(gone.translate({ texts: ['a.'], source: 'en', target: 'de' })).rejects.toMatchObject({
      code: 'translation_failed',
      message: expect.stringMatching(/could not be reached/),
    });
  });

  it('sends texts in batches of 50', async () => {
    answer = libreTranslate([]);
    const lt = new LibreTranslateTranslation({ url, apiKey: undefined, timeoutMs: 5000 });
    const texts = Array.from({ length: 120 }, (_, i) => `Line ${i}.`);
    const out = await lt.translate({ texts, source: 'en', target: 'de' });
    expect(out.texts).toEqual(texts.map((t) => `[de] ${t}`));
    expect(
      seen.filter((s) => s.path === '/translate').map((s) => (s.body as { q: string[] }).q.length),
    ).toEqual([50, 50, 20]);
  });
});

/** A chat completion whose content is the given text. */
const completion = (content: string) =>
  JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] });
const segmentsOf = (s: Seen) =>
  (
    JSON.parse((s.body as { messages: { content: string }[] }).messages[1]?.content ?? '{}') as {
      segments: string[];
    }
  ).segments;

describe('OpenAI-compatible chat adapter', () => {
  it('asks for a JSON object of N translations and reads it back in order', async () => {
    answer = (s, res) =>
      res.end(completion(JSON.stringify({ translations: segmentsOf(s).map((t) => `de:${t}`) })));
    const chat = new OpenAiChatTranslation({
      url: `${url}/v1`,
      apiKey: 'sk-t',
      model: 'qwen2.5:7b',
      timeoutMs: 5000,
    });
    const { texts, route } = await chat.translate({
      texts: ['Hello.', ' ', 'Bye.'],
      source: 'en',
      target: 'de',
    });
    expect(texts).toEqual(['de:Hello.', ' ', 'de:Bye.']);
    expect(route).toEqual({ adapter: 'openai-chat', languages: ['en', 'de'], offline: false });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { authorization: 'Bearer sk-t' },
      body: { model: 'qwen2.5:7b', response_format: { type: 'json_object' }, stream: false },
    });
    const messages =
      (seen[0]?.body as { messages: { role: string; content: string }[] } | undefined)?.messages ?? [];
    expect(messages[0]?.content).toMatch(/from English \(en\) to German \(de\)/);
    expect(JSON.parse(messages[1]?.content ?? '')).toEqual({ n: 2, segments: ['Hello.', 'Bye.'] });
  });

  it('asks again when the count is wrong, then text by text', async () => {
    // Merges every batch into one element; answers a batch of one rightly.
    answer = (s, res) => {
      const segments = segmentsOf(s);
      res.end(completion(JSON.stringify({ translations: [segments.map((t) => `de:${t}`).join(' ')] })));
    };
    const chat = new OpenAiChatTranslation({
      url: `${url}/v1`,
      apiKey: undefined,
      model: 'm',
      timeoutMs: 5000,
    });
    const { texts } = await chat.translate({ texts: ['One.', 'Two.'], source: 'en', target: 'de' });
    expect(texts).toEqual(['de:One.', 'de:Two.']);
    expect(seen.map((s) => segmentsOf(s).length)).toEqual([2, 2, 1, 1]);
    expect(seen[0]?.headers.authorization).toBeUndefined();
  });

  it('fails clearly when even one text at a time does not come back', async () => {
    answer = (_s, res) => res.end(completion('Sure! Here is your translation: Hallo.'));
    const chat = new OpenAiChatTranslation({
      url: `${url}/v1`,
      apiKey: undefined,
      model: 'm',
      timeoutMs: 5000,
    });
    await expect(chat.translate({ texts: ['Hello.'], source: 'en', target: 'de' })).rejects.toMatchObject({
      code: 'translation_failed',
      message:
        'Translating from English to German failed: the model m did not answer a JSON list of one translation, twice.',
    });
  });

  it('asks without response_format once a server refuses it', async () => {
    answer = (s, res) => {
      if ((s.body as Record<string, unknown>).response_format) {
        res.statusCode = 400;
        return res.end(JSON.stringify({ error: "'response_format.type' must be 'json_schema' or 'text'" }));
      }
      res.end(completion(JSON.stringify(segmentsOf(s).map((t) => `de:${t}`))));
    };
    const chat = new OpenAiChatTranslation({
      url: `${url}/v1`,
      apiKey: undefined,
      model: 'm',
      timeoutMs: 5000,
    });
    expect((await chat.translate({ texts: ['One.'], source: 'en', target: 'de' })).texts).toEqual([
      'de:One.',
    ]);
    expect((await chat.translate({ texts: ['Two.'], source: 'en', target: 'de' })).texts).toEqual([
      'de:Two.',
    ]);
    expect(seen.map((s) => 'response_format' in (s.body as object))).toEqual([true, false, false]);
    // Any other refusal is the translation's failure, with the server's words.
    answer = (_s, res) => {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: { message: 'model "m" not found' } }));
    };
    await expect(chat.translate({ texts: ['Three.'], source: 'en', target: 'de' })).rejects.toMatchObject({
      code: 'translation_failed',
      message: expect.stringMatching(/answered 400: model "m" not found$/),
    });
  });

  it('reads fenced answers, bare arrays and answers after a think block', () => {
    expect(parseChatTranslations('```json\n{"translations": ["a", "b"]}\n```', 2)).toEqual(['a', 'b']);
    expect(parseChatTranslations('["a"]', 1)).toEqual(['a']);
    expect(parseChatTranslations('<think>hmm</think>\n{"translations": ["a"]}', 1)).toEqual(['a']);
    expect(parseChatTranslations('{"translations": ["a", 2]}', 2)).toBeNull();
    expect(parseChatTranslations('{"translations": ["a"]}', 2)).toBeNull();
  });
});

describe('the composite provider and the capability list', () => {
  /** Apertium with every pair (no run needed here: routes only). */
  const offline = () => {
    const apertium = new ApertiumTranslation({ modesDir: '/nonexistent', timeoutMs: 1000 });
    Object.assign(apertium, {
      available: new Set(['en>es', 'es>en', 'es>pt', 'pt>es', 'es>fr', 'fr>es', 'es>it', 'it>es', 'ro>es']),
    });
    return apertium;
  };

  it('prefers Apertium (direct, then pivot), then the servers; TRANSLATION_PREFER=server turns it round', () => {
    const chat = new OpenAiChatTranslation({ url, apiKey: undefined, model: 'm', timeoutMs: 5000 });
    const both = new CompositeTranslation([offline(), chat]);
    expect(both.route('en', 'es')?.adapter).toBe('apertium');
    expect(both.route('EN', 'pt')).toEqual({
      adapter: 'apertium',
      languages: ['en', 'es', 'pt'],
      offline: true,
    });
    expect(both.route('en', 'de')).toEqual({
      adapter: 'openai-chat',
      languages: ['en', 'de'],
      offline: false,
    });
    expect(both.route('en', 'en')).toBeNull();
    expect(new CompositeTranslation([chat, offline()]).route('en', 'pt')?.adapter).toBe('openai-chat');
  });

  it('asks a server nothing for a pair Apertium does, and reads its list before sending it one', async () => {
    answer = libreTranslate([{ code: 'en', targets: ['de'] }]);
    const apertium = new ApertiumTranslation({
      modesDir: '/nonexistent',
      timeoutMs: 1000,
      run: async (mode, text) => text.replace(/^(.+)$/gm, `${mode}:$1`),
    });
    Object.assign(apertium, { available: new Set(['en>es']) });
    const provider = new CompositeTranslation([
      apertium,
      new LibreTranslateTranslation({ url, apiKey: undefined, timeoutMs: 5000 }),
    ]);
    const spanish = await provider.translate({ texts: ['Hi.'], source: 'en', target: 'es' });
    expect(spanish).toEqual({
      texts: ['Eng-spa:Hi.'],
      route: { adapter: 'apertium', languages: ['en', 'es'], offline: true },
    });
    expect(seen).toEqual([]);
    const german = await provider.translate({ texts: ['Hi.'], source: 'en', target: 'de' });
    expect(german.texts).toEqual(['[de] Hi.']);
    expect(seen.map((s) => s.path)).toEqual(['/languages', '/translate']);
    await expect(provider.translate({ texts: ['Hi.'], source: 'en', target: 'ja' })).rejects.toMatchObject({
      code: 'translation_unavailable',
      message:
        'Parla cannot translate from English to Japanese on this installation: Apertium has no pair for it here, directly or through Spanish, and the configured translation server (libretranslate) does not offer it.',
    });
  });

  it('marks each of the 29 languages with how English reaches it', () => {
    const list = dubbingLanguageCapabilities(new CompositeTranslation([offline()]), {
      transcribe: (code) => code === 'en',
      speak: (code) => ['en', 'es'].includes(code),
    });
    expect(list).toHaveLength(29);
    const byCode = Object.fromEntries(list.map((l) => [l.code, l]));
    expect(byCode.en).toEqual({
      code: 'en',
      name: 'English',
      can_transcribe: true,
      can_translate_from_english: true,
      can_speak: true,
      translation: 'offline',
      pivot: [],
    });
    expect(byCode.es).toMatchObject({
      translation: 'offline',
      pivot: [],
      can_speak: true,
      can_transcribe: false,
    });
    expect(byCode.pt).toMatchObject({
      translation: 'offline_pivot',
      pivot: ['es'],
      can_translate_from_english: true,
    });
    expect(byCode.de).toMatchObject({ translation: 'none', pivot: [], can_translate_from_english: false });
    expect(byCode.ro).toMatchObject({ translation: 'none' }); // Romanian to Spanish only
    const withServer = dubbingLanguageCapabilities(
      new CompositeTranslation([
        offline(),
        new OpenAiChatTranslation({ url, apiKey: undefined, model: 'm', timeoutMs: 1 }),
      ]),
      { transcribe: () => false, speak: () => false },
    );
    expect(withServer.filter((l) => l.translation === 'server').map((l) => l.code)).toHaveLength(29 - 5);
  });
});
