import { describe, expect, it } from 'vitest';
import { ApertiumTranslation } from './apertium-translation';
import { createTranslationProvider } from './create-translation-provider';

/**
 * Against Debian's real `apertium` (a runtime package, scripts/install-system-deps.sh), in the program
 * host: one run per hop, so each case costs 0.1–0.3 s.
 */
const apertium = new ApertiumTranslation({ timeoutMs: 30_000 });

describe('Apertium on this machine', () => {
  it('translates English to Spanish in one batch, keeping count, order and blanks', async () => {
    const { texts, route } = await apertium.translate({
      texts: [
        'Hello, my friend.',
        '',
        'The house is big.',
        'It costs $5 [approx] a/b {x}.',
        'Thank you very much.',
      ],
      source: 'en',
      target: 'es',
    });
    expect(route).toEqual({ adapter: 'apertium', languages: ['en', 'es'], offline: true });
    expect(texts).toHaveLength(5);
    expect(texts[0]).toMatch(/^Hola, mi amigo\.$/);
    expect(texts[1]).toBe('');
    expect(texts[2]).toMatch(/casa es grande/i);
    // Apertium's format characters survive the round trip through its deformatter.
    expect(texts[3]).toContain('$5 [approx]');
    expect(texts[4]).toMatch(/gracias/i);
  });

  it('translates English to Portuguese through Spanish and says so', async () => {
    const { texts, route } = await apertium.translate({
      texts: ['The house is big.', 'I have two dogs.'],
      source: 'en',
      target: 'pt',
    });
    expect(route.languages).toEqual(['en', 'es', 'pt']);
    expect(texts[0]).toMatch(/casa é grande/i);
    expect(texts[1]).toMatch(/dois cães|dois cachorros/i);
  });

  it('translates Spanish to English', async () => {
    const { texts } = await apertium.translate({ texts: ['La casa es grande.'], source: 'es', target: 'en' });
    expect(texts[0]).toMatch(/house is big/i);
  });

  it('has no route for a pair Debian does not ship, and says why', async () => {
    const provider = createTranslationProvider({
      translation: { prefer: 'offline', libretranslate: undefined, openai: undefined, timeoutMs: 30_000 },
    });
    expect(provider.route('en', 'de')).toBeNull();
    expect(provider.route('en', 'fr')).toEqual({
      adapter: 'apertium',
      languages: ['en', 'es', 'fr'],
      offline: true,
    });
    await expect(provider.translate({ texts: ['Hello.'], source: 'en', target: 'de' })).rejects.toMatchObject(
      {
        code: 'translation_unavailable',
        message: expect.stringMatching(
          /^Parla cannot translate from English to German on this installation: Apertium has no pair for it here, directly or through Spanish, and no translation server is configured/,
        ),
      },
    );
  });

  // 20,000 lines take Apertium 15–30 s here: both tests end long before, or the pipeline was not stopped.
  const many = Array.from({ length: 20_000 }, (_, i) => `The house number ${i} is big.`);

  it('stops the whole pipeline when the caller cancels', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const running = apertium.translate({
      texts: many,
      source: 'en',
      target: 'it',
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 300);
    await expect(running).rejects.toMatchObject({ message: 'The translation was cancelled.' });
    // Killing the `apertium` script alone left its pipeline running to the end (5 s for these lines).
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('stops a run past its time bound, with a clear error', async () => {
    const bounded = new ApertiumTranslation({ timeoutMs: 1000 });
    const started = Date.now();
    await expect(bounded.translate({ texts: many, source: 'en', target: 'es' })).rejects.toMatchObject({
      code: 'translation_failed',
      message:
        'Translating from English to Spanish failed: apertium eng-spa took longer than 1 s and was stopped',
    });
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
