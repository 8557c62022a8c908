import type { HistoryItemResponse } from '@parla/contracts';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../app/providers';
import { createAppRoutes } from '../app/router';
import { SEARCH_DEBOUNCE_MS } from '../features/history/components/speech-history';
import { shareVideoTexts } from '../features/history/share-video-rules';
import { stubMedia } from '../features/player/player-test-kit';
import { setAccessToken } from '../lib/access-token';
import { createQueryClient } from '../lib/query-client';
import { apiError, json, makeSubscription } from '../test/billing-fixture';
import { makeModel, makeVoice } from '../test/catalogue-fixture';
import { makeHistoryItem } from '../test/history-fixture';
import { makeUser } from '../test/user-fixture';

const HOUR = 3600;
const DAY = 24 * HOUR;
/** Noon, local time: "today" and "yesterday" are far from midnight. */
const noon = new Date(2025, 5, 15, 12, 0, 0);
const nowUnix = Math.floor(noon.getTime() / 1000);

const voice = (voice_id: string, name: string) => makeVoice({ voice_id, name });
const model = makeModel({ model_id: 'eleven_multilingual_v2', name: 'Parla Multilingual v1' });

const today = makeHistoryItem({
  history_item_id: 'h1',
  text: 'The first line, made an hour ago.',
  date_unix: nowUnix - HOUR,
});
const yesterday = makeHistoryItem({
  history_item_id: 'h2',
  text: 'A line from yesterday.',
  voice_id: 'v2',
  voice_name: 'Adam',
  date_unix: nowUnix - DAY,
});
const older = makeHistoryItem({
  history_item_id: 'h3',
  text: 'An older line.',
  date_unix: nowUnix - 5 * DAY,
});

type Handler = (call: { query: URLSearchParams; body: unknown }) => Response | Promise<Response>;

/** A page of history as the server answers it. */
const page = (history: HistoryItemResponse[], hasMore = false) =>
  json({
    history,
    last_history_item_id: history.at(-1)?.history_item_id ?? null,
    has_more: hasMore,
    scanned_until: null,
  });

/** A signed-in user (override the document with `user`); other "METHOD path" answers from `handlers`. */
function stubApi(handlers: Record<string, Handler> = {}, user = makeUser()) {
  setAccessToken('t1');
  const calls: Array<{ key: string; query: URLSearchParams; body: unknown }> = [];
  const base: Record<string, Handler> = {
    'GET /v1/user': () => json(user),
    'GET /v1/user/subscription': () => json(makeSubscription()),
    'GET /v1/voices': () => json({ voices: [voice('v1', 'Rachel'), voice('v2', 'Adam')] }),
    'GET /v1/models': () => json([model]),
    'GET /v1/history': () => page([today, yesterday, older]),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path = '', search = ''] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      const call = {
        key,
        query: new URLSearchParams(search),
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      };
      calls.push(call);
      const handler = handlers[key] ?? base[key];
      return handler ? handler(call) : apiError(404, 'not_found');
    }),
  );
  return calls;
}

const historyCalls = (calls: ReturnType<typeof stubApi>) =>
  calls.filter((call) => call.key === 'GET /v1/history');

function renderApp(path = '/app/speech-synthesis/text-to-speech/history') {
  const router = createMemoryRouter(createAppRoutes(), { initialEntries: [path] });
  render(<Providers router={router} queryClient={createQueryClient()} />);
  return router;
}

/** Waits for the list and hands back the row of an item, found by its text. */
async function findRow(text: string): Promise<HTMLElement> {
  const found = await screen.findByText(text, {}, { timeout: 5000 });
  const row = found.closest('li');
  if (!row) throw new Error(`No row for ${text}`);
  return row;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(noon);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
});

describe('/app/speech-synthesis/*/history (history/voices §2 "Speech history")', () => {
  it('lists text to speech items grouped by day with voice, model and relative date', async () => {
    const calls = stubApi();
    renderApp();
    const row = await findRow('The first line, made an hour ago.');
    expect(screen.getByRole('heading', { level: 1, name: 'Text to speech history' })).toBeTruthy();
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual(['Today', 'Yesterday', 'Tuesday, June 10, 2025']);
    expect(within(row).getByText('Rachel')).toBeTruthy();
    await within(row).findByText('Parla Multilingual v1');
    expect(within(row).getByText('1 hour ago')).toBeTruthy();
    expect(within(await findRow('An older line.')).getByText('5 days ago')).toBeTruthy();
    const first = historyCalls(calls)[0]?.query;
    expect(first?.get('source')).toBe('TTS');
    expect(first?.get('page_size')).toBe('30');
    expect(first?.has('start_after_history_item_id')).toBe(false);
  });

  it('reads speech to speech from its path', async () => {
    const calls = stubApi();
    renderApp('/app/speech-synthesis/speech-to-speech/history');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Speech to speech history' }, { timeout: 5000 }),
    ).toBeTruthy();
    await waitFor(() => expect(historyCalls(calls)[0]?.query.get('source')).toBe('STS'));
  });

  it('names every voice of a dialogue item, not only the first (issue 18 item 8)', async () => {
    const dialogue = makeHistoryItem({
      history_item_id: 'h9',
      text: 'Hello.\nHi there.',
      voice_name: 'Rachel',
      date_unix: nowUnix - HOUR,
      dialogue: [
        { text: 'Hello.', voice_id: 'v1', voice_name: 'Rachel' },
        { text: 'Hi there.', voice_id: 'v2', voice_name: 'Adam' },
      ],
    });
    stubApi({ 'GET /v1/history': () => page([dialogue]) });
    renderApp();
    const row = await findRow('Rachel, Adam');
    expect(within(row).getByRole('button', { name: /^Play/ })).toBeTruthy();
  });

  it('sends the search to the server once typing settles, and filters by voice', async () => {
    const calls = stubApi({
      'GET /v1/history': ({ query }) =>
        page(
          query.get('search') === 'yesterday' || query.get('voice_id') === 'v2'
            ? [yesterday]
            : [today, yesterday],
        ),
    });
    renderApp();
    await findRow('The first line, made an hour ago.');
    const search = screen.getByRole('searchbox', { name: 'Search' });
    fireEvent.change(search, { target: { value: 'yest' } });
    fireEvent.change(search, { target: { value: 'yesterday' } });
    expect(historyCalls(calls).some((call) => call.query.has('search'))).toBe(false);
    await waitFor(() => expect(screen.queryByText('The first line, made an hour ago.')).toBeNull(), {
      timeout: SEARCH_DEBOUNCE_MS + 2000,
    });
    expect(historyCalls(calls).map((call) => call.query.get('search'))).toEqual([null, 'yesterday']);

    fireEvent.change(search, { target: { value: '' } });
    await findRow('The first line, made an hour ago.');
    fireEvent.change(screen.getByRole('combobox', { name: 'Voice' }), { target: { value: 'v2' } });
    await waitFor(() => expect(screen.queryByText('The first line, made an hour ago.')).toBeNull());
    expect(historyCalls(calls).at(-1)?.query.get('voice_id')).toBe('v2');
  });

  it('says when nothing matches, and clears the filters', async () => {
    stubApi({ 'GET /v1/history': ({ query }) => page(query.get('voice_id') ? [] : [today]) });
    renderApp();
    await findRow('The first line, made an hour ago.');
    fireEvent.change(screen.getByRole('combobox', { name: 'Voice' }), { target: { value: 'v2' } });
    expect(await screen.findByRole('heading', { name: 'No generations match' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await findRow('The first line, made an hour ago.');
  });

  it('loads the next page after the last item, with a Load more button', async () => {
    const calls = stubApi({
      'GET /v1/history': ({ query }) =>
        query.get('start_after_history_item_id') === 'h2' ? page([older]) : page([today, yesterday], true),
    });
    renderApp();
    await findRow('A line from yesterday.');
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await findRow('An older line.');
    expect(historyCalls(calls).map((call) => call.query.get('start_after_history_item_id'))).toEqual([
      null,
      'h2',
    ]);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('shows an empty state', async () => {
    stubApi({ 'GET /v1/history': () => page([]) });
    renderApp();
    expect(
      await screen.findByRole('heading', { name: 'No generations yet' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Generate speech' }).getAttribute('href')).toBe(
      '/app/speech-synthesis/text-to-speech',
    );
  });

  it('shows a failed load with Try again', async () => {
    let fail = true;
    stubApi({
      'GET /v1/history': () =>
        fail ? apiError(403, 'forbidden', 'You cannot see this history.') : page([today]),
    });
    renderApp();
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toBe(
      'You cannot see this history.',
    );
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await findRow('The first line, made an hour ago.');
  });

  it('deletes an item after confirming, takes it off the list and says so', async () => {
    const calls = stubApi({ 'DELETE /v1/history/h2': () => json({ status: 'ok' }) });
    renderApp();
    const row = await findRow('A line from yesterday.');
    fireEvent.click(within(row).getByRole('button', { name: 'Delete “A line from yesterday.”' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this generation?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('A line from yesterday.')).toBeNull());
    expect(await screen.findByText('Generation deleted')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter((call) => call.key.startsWith('DELETE')).map((call) => call.key)).toEqual([
      'DELETE /v1/history/h2',
    ]);
    expect(screen.queryByRole('heading', { name: 'Yesterday' })).toBeNull();
  });

  it('after deleting the last item listed, loads the next page after the item before it', async () => {
    const calls = stubApi({
      'DELETE /v1/history/h2': () => json({ status: 'ok' }),
      'GET /v1/history': ({ query }) => {
        const after = query.get('start_after_history_item_id');
        // The server refuses to continue after an item that no longer exists.
        if (after === 'h2') return apiError(404, 'resource_not_found', 'History item h2 not found.');
        return after === 'h1' ? page([older]) : page([today, yesterday], true);
      },
    });
    renderApp();
    const row = await findRow('A line from yesterday.');
    fireEvent.click(within(row).getByRole('button', { name: 'Delete “A line from yesterday.”' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this generation?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('A line from yesterday.')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await findRow('An older line.');
    expect(historyCalls(calls).map((call) => call.query.get('start_after_history_item_id'))).toEqual([
      null,
      'h1',
    ]);
  });

  it('keeps the item when the deletion is cancelled', async () => {
    const calls = stubApi();
    renderApp();
    const row = await findRow('A line from yesterday.');
    fireEvent.click(within(row).getByRole('button', { name: 'Delete “A line from yesterday.”' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('A line from yesterday.')).toBeTruthy();
    expect(calls.some((call) => call.key.startsWith('DELETE'))).toBe(false);
  });

  describe('downloads (history/voices §5, §7)', () => {
    function stubSaving() {
      const saved: string[] = [];
      vi.stubGlobal(
        'URL',
        Object.assign(class extends URL {}, {
          createObjectURL: () => 'blob:test/1',
          revokeObjectURL: () => {},
        }),
      );
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        if (this.download) saved.push(this.download);
      });
      return saved;
    }

    it('downloads one item under the server name', async () => {
      const calls = stubApi({
        'POST /v1/history/download': () =>
          new Response('ID3', {
            headers: {
              'content-type': 'audio/mpeg',
              'content-disposition': 'attachment; filename="take.mp3"',
            },
          }),
      });
      const saved = stubSaving();
      renderApp();
      const row = await findRow('The first line, made an hour ago.');
      fireEvent.click(
        within(row).getByRole('button', { name: 'Download “The first line, made an hour ago.”' }),
      );
      await waitFor(() => expect(saved).toEqual(['take.mp3']));
      expect(calls.find((call) => call.key === 'POST /v1/history/download')?.body).toEqual({
        history_item_ids: ['h1'],
      });
    });

    it('downloads the selected items as one zip', async () => {
      const calls = stubApi({
        'POST /v1/history/download': () =>
          new Response('PK', {
            headers: {
              'content-type': 'application/zip',
              'content-disposition': 'attachment; filename="all.zip"',
            },
          }),
      });
      const saved = stubSaving();
      renderApp();
      await findRow('An older line.');
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select “The first line, made an hour ago.”' }));
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select “An older line.”' }));
      expect(screen.getByText('2 selected')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Download 2 as zip' }));
      await waitFor(() => expect(saved).toEqual(['all.zip']));
      expect(calls.find((call) => call.key === 'POST /v1/history/download')?.body).toEqual({
        history_item_ids: ['h1', 'h3'],
      });
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
      expect(screen.getByText('3 selected')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
      expect(screen.queryByText(/selected$/)).toBeNull();
    });

    it('refuses a response of an unknown type with the §8 sentence', async () => {
      stubApi({
        'POST /v1/history/download': () =>
          new Response('<html>', { headers: { 'content-type': 'text/html' } }),
      });
      const saved = stubSaving();
      renderApp();
      const row = await findRow('The first line, made an hour ago.');
      fireEvent.click(
        within(row).getByRole('button', { name: 'Download “The first line, made an hour ago.”' }),
      );
      expect(
        await screen.findByText("Invalid response type received: 'text/html' is not supported."),
      ).toBeTruthy();
      expect(saved).toEqual([]);
    });
  });

  it('plays an item in the bottom player from its authenticated audio', async () => {
    const media = stubMedia();
    const calls = stubApi({
      'GET /v1/history/h1/audio': () => new Response('ID3', { headers: { 'content-type': 'audio/mpeg' } }),
    });
    renderApp();
    const row = await findRow('The first line, made an hour ago.');
    fireEvent.click(within(row).getByRole('button', { name: 'Play “The first line, made an hour ago.”' }));
    await waitFor(() => expect(calls.some((call) => call.key === 'GET /v1/history/h1/audio')).toBe(true));
    expect(await screen.findByRole('region', { name: 'Audio player' })).toBeTruthy();
    expect(media.createObjectURL).toHaveBeenCalled();
  });

  it('rates an item where feedback is enabled, and not otherwise', async () => {
    stubApi();
    renderApp();
    const row = await findRow('The first line, made an hour ago.');
    expect(within(row).getByRole('group', { name: 'Rate this audio' })).toBeTruthy();
    cleanup();
    stubApi({}, makeUser({ feature_configs: { feedback_enabled: false, tts_video_generation: false } }));
    renderApp();
    const plain = await findRow('The first line, made an hour ago.');
    await act(async () => {});
    expect(within(plain).queryByRole('group', { name: 'Rate this audio' })).toBeNull();
  });

  describe('the Share button (history/voices §2 "Share controls", §6)', () => {
    const linkOnly = { feedback_enabled: true, tts_video_generation: false };

    it('opens the share link dialog without the video flag', async () => {
      stubApi(
        {
          'GET /v1/history/h1/share-link': () =>
            json({ share_link: 'https://parla.example/share/abc', public_user_name: null }),
        },
        makeUser({ feature_configs: linkOnly }),
      );
      renderApp();
      const row = await findRow('The first line, made an hour ago.');
      await waitFor(() => expect(within(row).queryByRole('button', { name: /^Share/ })).toBeTruthy());
      fireEvent.click(within(row).getByRole('button', { name: 'Share “The first line, made an hour ago.”' }));
      const dialog = await screen.findByRole('dialog', { name: 'Share with your community' });
      expect(await within(dialog).findByRole('link', { name: 'Share on X' })).toBeTruthy();
    });

    it('is hidden for an enterprise-tier workspace without the video flag', async () => {
      stubApi(
        {},
        makeUser({
          feature_configs: linkOnly,
          subscription: { ...makeSubscription(), tier: 'enterprise' },
        }),
      );
      renderApp();
      const row = await findRow('The first line, made an hour ago.');
      // Once the user document is in (its feedback thumbs show), Share is still absent.
      await waitFor(() => expect(within(row).getByLabelText('Good audio')).toBeTruthy());
      expect(within(row).queryByRole('button', { name: /^Share/ })).toBeNull();
      expect(within(row).getByRole('button', { name: /^Delete/ })).toBeTruthy();
    });

    it('opens the video dialog with the video flag, even for enterprise', async () => {
      stubApi(
        {},
        makeUser({
          feature_configs: { feedback_enabled: true, tts_video_generation: true },
          subscription: { ...makeSubscription(), tier: 'enterprise' },
        }),
      );
      renderApp();
      const row = await findRow('The first line, made an hour ago.');
      const share = await within(row).findByRole('button', {
        name: 'Share “The first line, made an hour ago.”',
      });
      fireEvent.click(share);
      const video = await screen.findByRole('dialog', { name: shareVideoTexts.title });
      fireEvent.click(within(video).getByRole('button', { name: shareVideoTexts.shareLink }));
      expect(await screen.findByRole('dialog', { name: 'Share with your community' })).toBeTruthy();
      expect(screen.queryByRole('dialog', { name: shareVideoTexts.title })).toBeNull();
    });
  });
});
