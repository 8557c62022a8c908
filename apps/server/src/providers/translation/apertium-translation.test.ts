import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  APERTIUM_MODES,
  type ApertiumRunner,
  ApertiumTranslation,
  apertiumRoute,
  cleanApertiumLine,
} from './apertium-translation';

const ALL = new Set(Object.keys(APERTIUM_MODES));

/** A modes folder holding the given mode files (what an installation with those pair packages has). */
const dirs: string[] = [];
function modesDir(modes: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apertium-modes-'));
  dirs.push(dir);
  for (const mode of modes) fs.writeFileSync(path.join(dir, `${mode}.mode`), '');
  return dir;
}
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs nothing: answers each line upper-cased with the mode in front, and records the calls. */
function recordingRunner(calls: { mode: string; text: string }[]): ApertiumRunner {
  return async (mode, text) => {
    calls.push({ mode, text });
    return text
      .split('\n')
      .map((line) => (line ? `${mode}:${line}` : line))
      .join('\n');
  };
}

describe('Apertium routes', () => {
  it('goes direct where a pair exists, else through Spanish, else nowhere', () => {
    expect(apertiumRoute(ALL, 'en', 'es')).toEqual(['en', 'es']);
    expect(apertiumRoute(ALL, 'es', 'en')).toEqual(['es', 'en']);
    expect(apertiumRoute(ALL, 'en', 'pt')).toEqual(['en', 'es', 'pt']);
    expect(apertiumRoute(ALL, 'en', 'fr')).toEqual(['en', 'es', 'fr']);
    expect(apertiumRoute(ALL, 'en', 'it')).toEqual(['en', 'es', 'it']);
    expect(apertiumRoute(ALL, 'ro', 'en')).toEqual(['ro', 'es', 'en']);
    expect(apertiumRoute(ALL, 'pt', 'fr')).toEqual(['pt', 'es', 'fr']);
    expect(apertiumRoute(ALL, 'sv', 'da')).toEqual(['sv', 'da']);
    // Debian's es-ro pair has Romanian to Spanish only; no German, no link from English to the islands.
    expect(apertiumRoute(ALL, 'en', 'ro')).toBeNull();
    expect(apertiumRoute(ALL, 'en', 'de')).toBeNull();
    expect(apertiumRoute(ALL, 'en', 'sv')).toBeNull();
    expect(apertiumRoute(ALL, 'en', 'en')).toBeNull();
  });

  it('routes only the pairs whose mode file is installed', () => {
    const apertium = new ApertiumTranslation({ modesDir: modesDir(['eng-spa', 'spa-eng']), timeoutMs: 1000 });
    expect(apertium.route('en', 'es')).toEqual({
      adapter: 'apertium',
      languages: ['en', 'es'],
      offline: true,
    });
    expect(apertium.route('en', 'pt')).toBeNull(); // es-pt is not installed
    const none = new ApertiumTranslation({ modesDir: modesDir([]), timeoutMs: 1000 });
    expect(none.available.size).toBe(0);
    expect(none.route('en', 'es')).toBeNull();
  });
});

describe('Apertium batches', () => {
  const full = () => modesDir(Object.values(APERTIUM_MODES));

  it('sends one batch a hop, one text a line, and keeps blanks, order and count', async () => {
    const calls: { mode: string; text: string }[] = [];
    const apertium = new ApertiumTranslation({
      modesDir: full(),
      timeoutMs: 1000,
      run: recordingRunner(calls),
    });
    const { texts, route } = await apertium.translate({
      texts: ['Hello.', '', 'Two\nlines.', '   ', 'Bye.'],
      source: 'en',
      target: 'pt',
    });
    expect(route).toEqual({ adapter: 'apertium', languages: ['en', 'es', 'pt'], offline: true });
    expect(calls.map((c) => c.mode)).toEqual(['eng-spa', 'es-pt']);
    expect(calls[0]?.text).toBe('Hello.\nTwo lines.\nBye.\n');
    expect(texts).toEqual([
      'Es-pt:eng-spa:Hello.',
      '',
      'Es-pt:eng-spa:Two lines.',
      '   ',
      'Es-pt:eng-spa:Bye.',
    ]);
  });

  it('fails when the line count does not come back, or nothing comes back', async () => {
    const lost: ApertiumRunner = async () => 'only one line\n';
    const apertium = new ApertiumTranslation({ modesDir: full(), timeoutMs: 1000, run: lost });
    await expect(
      apertium.translate({ texts: ['a.', 'b.'], source: 'en', target: 'es' }),
    ).rejects.toMatchObject({
      code: 'translation_failed',
      message: expect.stringMatching(/gave back 1 line\(s\) for 2/),
    });
    const silent = new ApertiumTranslation({ modesDir: full(), timeoutMs: 1000, run: async () => '' });
    await expect(silent.translate({ texts: ['a.'], source: 'en', target: 'es' })).rejects.toMatchObject({
      code: 'translation_failed',
      message: expect.stringMatching(/printed nothing/),
    });
  });

  it('says clearly that a pair has no route', async () => {
    const apertium = new ApertiumTranslation({ modesDir: full(), timeoutMs: 1000, run: recordingRunner([]) });
    await expect(apertium.translate({ texts: ['Hello.'], source: 'en', target: 'de' })).rejects.toMatchObject(
      {
        code: 'translation_unavailable',
        message:
          'Parla cannot translate from English to German on this installation: Apertium has no pair for it here, directly or through Spanish.',
      },
    );
  });

  it('sends nothing for a batch of blanks', async () => {
    const calls: { mode: string; text: string }[] = [];
    const apertium = new ApertiumTranslation({
      modesDir: full(),
      timeoutMs: 1000,
      run: recordingRunner(calls),
    });
    expect((await apertium.translate({ texts: ['', ' '], source: 'en', target: 'es' })).texts).toEqual([
      '',
      ' ',
    ]);
    expect(calls).toEqual([]);
  });
});

describe('Apertium output cleaning', () => {
  it("removes the marks Apertium adds, not the source's own", () => {
    expect(cleanApertiumLine('Hola, *xyzzy @perro #venido', 'Hello, xyzzy dog come', 'es')).toBe(
      'Hola, xyzzy perro venido',
    );
    expect(cleanApertiumLine('Hej, biti free come# to', 'Hey, are you coming to', 'hr')).toBe(
      'Hej, biti free come to',
    );
    expect(cleanApertiumLine('#hashtag Y C# rocas', '#hashtag and C# rocks', 'es')).toBe(
      '#hashtag Y C# rocas',
    );
    expect(cleanApertiumLine('bob@example.com', 'bob@example.com', 'es')).toBe('bob@example.com');
  });

  it('collapses spaces and drops those before punctuation, except where French puts them', () => {
    expect(cleanApertiumLine(' No sé.  Tengo viernes !', 'x', 'es')).toBe('No sé. Tengo viernes!');
    expect(cleanApertiumLine('Il est vendredi ! Oui .', 'x', 'fr')).toBe('Il est vendredi ! Oui.');
  });
});
