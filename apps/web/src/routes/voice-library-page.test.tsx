import type { LibraryVoice } from '@parla/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubMedia } from '../features/player/player-test-kit';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';
import { libraryPage, makeLibraryVoice } from '../test/voices-fixture';

interface Call {
  key: string;
  query: URLSearchParams;
  body: unknown;
}
type Handler = (call: Call) => Response | Promise<Response>;

const nell = makeLibraryVoice();
const max = makeLibraryVoice({
  voice_id: 'lib2',
  public_owner_id: 'owner2',
  name: 'Max Energy',
  gender: 'male',
  age: 'young',
  accent: 'american',
  use_case: 'social_media',
  description: 'Upbeat and quick.',
  cloned_by_count: 1,
  is_added_by_user: true,
});
const mine = makeLibraryVoice({ voice_id: 'lib3', public_owner_id: 'p1', name: 'My Shared One' });

/** The library's languages and accents as the server lists them: only those some shared voice has. */
const languages = [
  { language: 'en', name: 'English', voice_count: 12 },
  { language: 'de', name: 'German', voice_count: 4 },
];
const accents = [
  { accent: 'american', language: 'en', code: 'en-american', name: 'American' },
  { accent: 'standard', language: 'en', code: 'en-standard', name: 'Standard' },
  { accent: 'standard', language: 'de', code: 'de-standard', name: 'Standard' },
  { accent: 'swiss', language: 'de', code: 'de-swiss', name: 'Swiss' },
];

function stubApi(handlers: Record<string, Handler> = {}, voices: LibraryVoice[] = [nell, max, mine]) {
  setAccessToken('t1');
  const calls: Call[] = [];
  const base: Record<string, Handler> = {
    'GET /v1/user': () => json(makeUser()),
    'GET /v1/shared-voices': () => json(libraryPage(voices)),
    'GET /v1/shared-voices/languages': () => json({ languages }),
    'GET /v1/voices/accents': ({ query }) =>
      json({
        accents: accents.filter((a) => !query.get('language') || a.language === query.get('language')),
      }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path = '', search = ''] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      const call = {
        key,
        query: new URLSearchParams(search),
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      const handler = handlers[key] ?? base[key];
      return handler ? handler(call) : apiError(404, 'not_found');
    }),
  );
  return calls;
}

const libraryCalls = (calls: Call[]) => calls.filter((call) => call.key === 'GET /v1/shared-voices');

function renderPage(path = '/app/voice-library') {
  return renderApp(path);
}

const findCards = () => screen.findByRole('list', { name: 'Shared voices' }, { timeout: 5000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
});

describe('/app/voice-library', () => {
  it('shows each shared voice with its traits, description and times added, and who has it', async () => {
    stubApi();
    renderPage();
    const cards = await findCards();
    const card = (name: string) => within(cards).getByRole('listitem', { name });
    expect(within(card('Narrator Nell')).getByText('Female')).toBeTruthy();
    expect(within(card('Narrator Nell')).getByText('Middle aged')).toBeTruthy();
    expect(within(card('Narrator Nell')).getByText('British')).toBeTruthy();
    expect(within(card('Narrator Nell')).getByText('Narration')).toBeTruthy();
    expect(within(card('Narrator Nell')).getByText('A calm British narrator.')).toBeTruthy();
    expect(within(card('Narrator Nell')).getByText('Added 12 times · English')).toBeTruthy();
    expect(
      within(card('Narrator Nell')).getByRole('button', { name: 'Add Narrator Nell to my voices' }),
    ).toBeTruthy();
    expect(within(card('Max Energy')).getByText('Added')).toBeTruthy();
    expect(within(card('Max Energy')).queryByRole('button', { name: /^Add / })).toBeNull();
    expect(within(card('My Shared One')).getByText('Yours')).toBeTruthy();
    expect(
      within(card('Narrator Nell')).getByRole('link', { name: 'Narrator Nell' }).getAttribute('href'),
    ).toBe('/app/voice-lab/share/owner1/lib1');
    expect(screen.getByText('3 voices')).toBeTruthy();
  });

  it('adds a voice under the name given, then shows it as added', async () => {
    let voices = [nell];
    const calls = stubApi({
      'GET /v1/shared-voices': () => json(libraryPage(voices)),
      'POST /v1/voices/add/owner1/lib1': () => {
        voices = [{ ...nell, is_added_by_user: true, cloned_by_count: 13 }];
        return json({ voice_id: 'copy1' });
      },
    });
    renderPage();
    const cards = await findCards();
    fireEvent.click(within(cards).getByRole('button', { name: 'Add Narrator Nell to my voices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Narrator Nell to your voices' });
    const name = within(dialog).getByLabelText('Name in your voices') as HTMLInputElement;
    expect(name.value).toBe('Narrator Nell');
    fireEvent.change(name, { target: { value: 'Nell for podcasts' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add to my voices' }));
    expect(await screen.findByText('Voice added')).toBeTruthy();
    expect(calls.find((call) => call.key === 'POST /v1/voices/add/owner1/lib1')?.body).toEqual({
      new_name: 'Nell for podcasts',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const card = within(await findCards()).getByRole('listitem', { name: 'Narrator Nell' });
    expect(await within(card).findByText('Added')).toBeTruthy();
    expect(within(card).getByText('Added 13 times · English')).toBeTruthy();
  });

  it('says why an add was refused, with the plans when the limit is reached', async () => {
    stubApi({
      'POST /v1/voices/add/owner1/lib1': () =>
        apiError(403, 'voice_limit_reached', 'You have reached your limit of 3 custom voices.'),
    });
    renderPage();
    fireEvent.click(
      within(await findCards()).getByRole('button', { name: 'Add Narrator Nell to my voices' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Add Narrator Nell to your voices' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add to my voices' }));
    expect(await within(dialog).findByText('You have reached your limit of 3 custom voices.')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe(
      '/app/subscription',
    );
  });

  it('filters, sorts and searches (debounced) on the server, and loads more pages', async () => {
    const calls = stubApi({
      'GET /v1/shared-voices': ({ query }) =>
        json(query.get('page') === '1' ? libraryPage([max], false, 2) : libraryPage([nell], true, 2)),
    });
    renderPage();
    const cards = await findCards();
    expect(libraryCalls(calls)[0]?.query.toString()).toBe('page=0&page_size=30&sort=created_date');

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(cards).findByRole('listitem', { name: 'Max Energy' })).toBeTruthy();
    expect(libraryCalls(calls).at(-1)?.query.get('page')).toBe('1');

    fireEvent.change(screen.getByLabelText('Gender'), { target: { value: 'female' } });
    fireEvent.change(screen.getByLabelText('Use case'), { target: { value: 'narration' } });
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'cloned_by_count' } });
    await waitFor(() => expect(libraryCalls(calls).at(-1)?.query.get('sort')).toBe('cloned_by_count'));
    const filtered = libraryCalls(calls).at(-1)?.query;
    expect(filtered?.get('gender')).toBe('female');
    expect(filtered?.get('use_cases')).toBe('narration');

    const before = libraryCalls(calls).length;
    fireEvent.change(screen.getByLabelText('Search the library'), { target: { value: 'c' } });
    fireEvent.change(screen.getByLabelText('Search the library'), { target: { value: 'calm' } });
    await waitFor(() => expect(libraryCalls(calls).at(-1)?.query.get('search')).toBe('calm'));
    // One request for the settled words, none for each keystroke.
    expect(libraryCalls(calls).length).toBe(before + 1);
  });

  it('offers only the languages and accents the library has, with their voice counts (issue 26)', async () => {
    const calls = stubApi();
    renderPage();
    await findCards();
    const language = screen.getByLabelText('Language') as HTMLSelectElement;
    const accent = screen.getByLabelText('Accent') as HTMLSelectElement;
    const texts = (select: HTMLSelectElement) => [...select.options].map((option) => option.text);
    await waitFor(() => expect(texts(language)).toEqual(['Any', 'English (12)', 'German (4)']));
    // Without a language, an accent several languages share is offered once.
    await waitFor(() => expect(texts(accent)).toEqual(['Any', 'American', 'Standard', 'Swiss']));

    fireEvent.change(accent, { target: { value: 'american' } });
    fireEvent.change(language, { target: { value: 'de' } });
    await waitFor(() =>
      expect(calls.some((c) => c.key === 'GET /v1/voices/accents' && c.query.get('language') === 'de')).toBe(
        true,
      ),
    );
    // The German accents, and the accent chosen before kept as chosen though no German voice has it.
    await waitFor(() => expect(texts(accent)).toEqual(['Any', 'Standard', 'Swiss', 'American']));
    expect(accent.value).toBe('american');
    await waitFor(() => expect(libraryCalls(calls).at(-1)?.query.get('language')).toBe('de'));
    expect(libraryCalls(calls).at(-1)?.query.get('accent')).toBe('american');
  });

  it('says when the languages cannot be loaded, and loads them again on asking', async () => {
    let fail = true;
    stubApi({
      'GET /v1/shared-voices/languages': () =>
        fail
          ? apiError(400, 'invalid_request', 'The library is unavailable.')
          : json({ languages: languages.slice(0, 1) }),
    });
    renderPage();
    await findCards();
    const language = screen.getByLabelText('Language') as HTMLSelectElement;
    const retry = await screen.findByRole('button', { name: 'Load the languages again' });
    expect(screen.getByText('Languages could not be loaded.')).toBeTruthy();
    // The filter still works as "Any" meanwhile.
    expect([...language.options].map((option) => option.text)).toEqual(['Any']);
    fail = false;
    fireEvent.click(retry);
    await waitFor(() => expect([...language.options].map((o) => o.text)).toEqual(['Any', 'English (12)']));
    expect(screen.queryByText('Languages could not be loaded.')).toBeNull();
  });

  it('marks the built-in voices, and shows only them when asked', async () => {
    const amelia = makeLibraryVoice({
      voice_id: 'built1',
      public_owner_id: 'parla',
      name: 'Amelia',
      description: 'A warm, even American narrator.',
      featured: true,
    });
    const calls = stubApi({
      'GET /v1/shared-voices': ({ query }) =>
        json(libraryPage(query.get('featured') === 'true' ? [amelia] : [amelia, nell])),
    });
    renderPage();
    const cards = await findCards();
    const card = (name: string) => within(cards).getByRole('listitem', { name });
    expect(within(card('Amelia')).getByText('Built-in')).toBeTruthy();
    expect(within(card('Narrator Nell')).queryByText('Built-in')).toBeNull();
    expect(libraryCalls(calls)[0]?.query.get('featured')).toBeNull();

    const only = screen.getByRole('switch', { name: 'Built-in voices only' });
    fireEvent.click(only);
    await waitFor(() => expect(libraryCalls(calls).at(-1)?.query.get('featured')).toBe('true'));
    await waitFor(() => expect(within(cards).queryByRole('listitem', { name: 'Narrator Nell' })).toBeNull());
    expect(card('Amelia')).toBeTruthy();
    // The switch is a filter like the others: "Clear filters" turns it off.
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect((only as HTMLInputElement).checked).toBe(false));
    expect(await within(cards).findByRole('listitem', { name: 'Narrator Nell' })).toBeTruthy();
  });

  it('plays a preview in the bottom player', async () => {
    stubMedia();
    stubApi();
    renderPage();
    fireEvent.click(
      within(await findCards()).getByRole('button', { name: 'Play the preview of Narrator Nell' }),
    );
    const bar = await screen.findByRole('region', { name: 'Audio player' });
    expect(within(bar).getByText('Narrator Nell · preview')).toBeTruthy();
  });

  it('tells an empty library from an empty search', async () => {
    const calls = stubApi({}, []);
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'The library is empty' }, { timeout: 5000 }),
    ).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Age'), { target: { value: 'old' } });
    await waitFor(() => expect(libraryCalls(calls).at(-1)?.query.get('age')).toBe('old'));
    expect(await screen.findByRole('heading', { name: 'No voices match' })).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Clear filters' })[1] as HTMLElement);
    expect(await screen.findByRole('heading', { name: 'The library is empty' })).toBeTruthy();
  });

  it('shows the server’s error with a retry', async () => {
    stubApi({
      'GET /v1/shared-voices': () => apiError(400, 'invalid_request', 'The library is unavailable.'),
    });
    renderPage();
    expect(await screen.findByText('The library is unavailable.', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
