import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubMedia } from '../features/player/player-test-kit';
import { setAccessToken } from '../lib/access-token';
import { storageKeys } from '../lib/storage-keys';
import { apiError, json } from '../test/billing-fixture';
import { makeModel, makeVoice } from '../test/catalogue-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';

const PATH = '/app/speech-synthesis/text-to-dialogue';

const model = (model_id: string, name: string, languages: string[], alias_of: string | null = null) =>
  makeModel({
    model_id,
    name,
    description: `${name}.`,
    max_characters_request_free_user: 3000,
    max_characters_request_subscribed_user: 3000,
    maximum_text_length_per_request: 3000,
    languages: languages.map((language_id) => ({ language_id, name: language_id })),
    alias_of,
  });

const voice = (voice_id: string, name: string, language: string) =>
  makeVoice({
    voice_id,
    name,
    labels: { language, accent: language === 'en' ? 'american' : 'castilian' },
  });

// As GET /v1/models lists them: Parla's models, and the public ids as their aliases.
const MODELS = [
  model('parla_tags_v1', 'Parla v1 with audio tags', ['en', 'es']),
  model('parla_english_v1', 'Parla English v1', ['en']),
  model('eleven_v3', 'Parla v1 with audio tags (alias eleven_v3)', ['en', 'es'], 'parla_tags_v1'),
  model('eleven_flash_v2', 'Parla English v1 (alias eleven_flash_v2)', ['en'], 'parla_english_v1'),
];
const VOICES = [voice('sarah', 'Sarah', 'en'), voice('kevin', 'Kevin', 'en'), voice('lucia', 'Lucía', 'es')];

interface Sent {
  url: string;
  body: unknown;
}

function stubApi(dialogue: () => Response = () => new Response(new Uint8Array([1, 2, 3]))) {
  setAccessToken('t1');
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/models') return json(MODELS);
      if (key === 'GET /v1/voices') return json({ voices: VOICES });
      if (key === 'POST /v1/text-to-dialogue/stream') {
        sent.push({ url, body: JSON.parse(String(init?.body)) });
        return dialogue();
      }
      return apiError(404, 'not_found');
    }),
  );
  return sent;
}

function renderPage() {
  return renderApp(PATH);
}

const stored = () => JSON.parse(localStorage.getItem(storageKeys.dialogue) ?? 'null');
const store = (value: unknown) => localStorage.setItem(storageKeys.dialogue, JSON.stringify(value));
const textOf = (n: number) =>
  screen.getByRole('textbox', { name: `Text of line ${n}` }) as HTMLTextAreaElement;
/** The name of the voice a line's picker shows. */
const voiceOf = (n: number) =>
  screen
    .getByRole('button', { name: new RegExp(`^Voice of line ${n}: `) })
    .getAttribute('aria-label')
    ?.split(': ')[1];

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
  localStorage.clear();
});

describe('/app/speech-synthesis/text-to-dialogue', () => {
  it('starts empty, adds lines that answer each other, and keeps them in xi:dialogue', async () => {
    stubApi();
    renderPage();
    expect(await screen.findByText('No lines yet', {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add the first line' }));
    await waitFor(() => expect(document.activeElement).toBe(textOf(1)));
    expect(voiceOf(1)).toBe('Sarah');
    fireEvent.change(textOf(1), { target: { value: 'Knock knock.' } });
    fireEvent.click(screen.getByRole('button', { name: /Add line/ }));
    await waitFor(() => expect(document.activeElement).toBe(textOf(2)));
    expect(voiceOf(2)).toBe('Kevin');
    fireEvent.change(textOf(2), { target: { value: '[curious] Who is there?' } });
    // The line's voice picker: filtered to Spanish, then one click.
    fireEvent.click(screen.getByRole('button', { name: 'Voice of line 2: Kevin' }));
    const picker = await screen.findByRole('dialog', { name: 'Choose a voice' });
    fireEvent.change(within(picker).getByRole('combobox', { name: 'Language' }), { target: { value: 'es' } });
    expect(
      within(picker)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Lucía')]);
    fireEvent.click(within(picker).getByRole('button', { name: 'Use Lucía' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(voiceOf(2)).toBe('Lucía');
    expect(stored()).toEqual([
      { text: 'Knock knock.', voice_id: 'sarah' },
      { text: '[curious] Who is there?', voice_id: 'lucia' },
    ]);
    expect(screen.getByText('35 / 3,000 characters')).toBeTruthy();
    expect(screen.getByText('2 / 50 lines')).toBeTruthy();
  });

  it('reads an unreadable store as an empty dialogue', async () => {
    localStorage.setItem(storageKeys.dialogue, '{"text": broken');
    stubApi();
    renderPage();
    expect(await screen.findByText('No lines yet', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('moves lines with the buttons and Alt+arrows, removes them, and focus follows', async () => {
    store([
      { text: 'One', voice_id: 'sarah' },
      { text: '', voice_id: 'kevin' },
      { text: 'Two', voice_id: 'kevin' },
      { text: 'Three', voice_id: 'sarah' },
    ]);
    stubApi();
    renderPage();
    // The empty line was dropped when read back (history/voices §5).
    await screen.findByRole('list', { name: 'Dialogue lines' }, { timeout: 5000 });
    expect(screen.getAllByRole('textbox').map((t) => (t as HTMLTextAreaElement).value)).toEqual([
      'One',
      'Two',
      'Three',
    ]);
    expect((screen.getByRole('button', { name: 'Move line 1 up' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Move line 1 down' }));
    expect(stored().map((l: { text: string }) => l.text)).toEqual(['Two', 'One', 'Three']);
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move line 2 down' })),
    );

    fireEvent.keyDown(textOf(3), { key: 'ArrowUp', altKey: true });
    expect(stored().map((l: { text: string }) => l.text)).toEqual(['Two', 'Three', 'One']);
    await waitFor(() => expect(document.activeElement).toBe(textOf(2)));
    // Without Alt, the arrows move the caret only.
    fireEvent.keyDown(textOf(2), { key: 'ArrowUp' });
    expect(stored().map((l: { text: string }) => l.text)).toEqual(['Two', 'Three', 'One']);

    fireEvent.click(screen.getByRole('button', { name: 'Remove line 1' }));
    await waitFor(() => expect(document.activeElement).toBe(textOf(1)));
    expect(textOf(1).value).toBe('Three');
    fireEvent.click(screen.getByRole('button', { name: 'Remove line 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove line 1' }));
    expect(await screen.findByText('No lines yet')).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add the first line' })),
    );
    expect(stored()).toEqual([]);
  });

  it('stops at 50 lines', async () => {
    store(Array.from({ length: 50 }, (_, i) => ({ text: `Line ${i}`, voice_id: 'sarah' })));
    stubApi();
    renderPage();
    await screen.findByRole('list', { name: 'Dialogue lines' }, { timeout: 5000 });
    expect((screen.getByRole('button', { name: /Add line/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('A dialogue holds at most 50 lines.')).toBeTruthy();
  });

  it('generates the lines with text, tags normalised, and plays the stream in the bottom player', async () => {
    stubMedia();
    store([
      { text: 'Hello  [ laughs ]   there.', voice_id: 'sarah' },
      { text: 'Hi!', voice_id: 'lucia' },
    ]);
    const sent = stubApi(
      () =>
        new Response(new Uint8Array([1, 2, 3]), {
          headers: { 'content-type': 'audio/mpeg', 'history-item-id': 'h1', 'x-character-count': '23' },
        }),
    );
    renderPage();
    const generate = await screen.findByRole('button', { name: 'Generate dialogue' }, { timeout: 5000 });
    await waitFor(() => expect((generate as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(generate);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.url).toBe('/v1/text-to-dialogue/stream?output_format=mp3_44100_128');
    expect(sent[0]?.body).toEqual({
      inputs: [
        { text: 'Hello [laughs] there.', voice_id: 'sarah' },
        { text: 'Hi!', voice_id: 'lucia' },
      ],
      // The public API's default (eleven_v3) is an alias: the app sends the Parla model it stands for.
      model_id: 'parla_tags_v1',
    });
    const bar = await screen.findByRole('region', { name: 'Audio player' });
    expect(within(bar).getByText('Dialogue · Sarah, Lucía')).toBeTruthy();
  });

  it('shows the server’s refusal in a toast', async () => {
    store([{ text: 'Hello there.', voice_id: 'sarah' }]);
    stubApi(() => apiError(404, 'voice_not_found', 'A voice with the voice_id sarah was not found.'));
    renderPage();
    const generate = await screen.findByRole('button', { name: 'Generate dialogue' }, { timeout: 5000 });
    await waitFor(() => expect((generate as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(generate);
    expect(await screen.findByText('A voice with the voice_id sarah was not found.')).toBeTruthy();
  });

  it('refuses a voice the model does not speak, line by line', async () => {
    store([
      { text: 'Hello.', voice_id: 'sarah' },
      { text: 'Hola.', voice_id: 'lucia' },
    ]);
    stubApi();
    renderPage();
    const select = await screen.findByRole('combobox', { name: 'Model' }, { timeout: 5000 });
    // Parla's models only, by their names.
    expect([...(select as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      'Parla v1 with audio tags',
      'Parla English v1',
    ]);
    fireEvent.change(select, { target: { value: 'parla_english_v1' } });
    expect(await screen.findByText(/Parla English v1 does not speak the language of Lucía/)).toBeTruthy();
    expect(textOf(2).getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByRole('button', { name: 'Generate dialogue' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });
});
