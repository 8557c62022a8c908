import type { HistoryItemResponse } from '@parla/contracts';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseTextDraft } from '../features/tts/use-text-draft';
import { setAccessToken } from '../lib/access-token';
import { clearAppStorage, storageKeys } from '../lib/storage-keys';
import { apiError, json, makeSubscription } from '../test/billing-fixture';
import { makeModel, makeVoice } from '../test/catalogue-fixture';
import { makeHistoryItem } from '../test/history-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';

const PATH = '/app/speech-synthesis/text-to-speech';

/** A signed-in user `userId` on the text-to-speech page's API, with these recent items. */
function stubApi({
  userId = 'u1',
  history = [] as HistoryItemResponse[],
  user = makeUser({ user_id: userId }),
} = {}) {
  setAccessToken('t1');
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      calls.push(key);
      if (key === 'GET /v1/user') return json(user);
      if (key === 'GET /v1/models') return json([makeModel()]);
      if (key === 'GET /v1/voices') return json({ voices: [makeVoice({ voice_id: 'v1', name: 'Rachel' })] });
      if (key === 'GET /v1/history')
        return json({ history, last_history_item_id: null, has_more: false, scanned_until: null });
      if (key === 'GET /v1/history/h1/share-link')
        return json({ share_link: 'https://parla.example/share/abc', public_user_name: null });
      return apiError(404, 'not_found');
    }),
  );
  return calls;
}

const textBox = () =>
  screen.findByRole('textbox', { name: 'Text' }, { timeout: 5000 }) as Promise<HTMLTextAreaElement>;
const storedDraft = () => localStorage.getItem(storageKeys.ttsDraft);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
  localStorage.clear();
});

describe('the text-to-speech draft (issue 18 item 8)', () => {
  it('keeps what was typed across a reload, for the same user', async () => {
    stubApi();
    renderApp(PATH);
    const box = await textBox();
    // Typed before the user document is in: kept as the draft once it is.
    fireEvent.change(box, { target: { value: 'A line to say tomorrow.' } });
    await waitFor(() =>
      expect(JSON.parse(storedDraft() ?? 'null')).toEqual({ user_id: 'u1', text: 'A line to say tomorrow.' }),
    );

    cleanup(); // the reload
    stubApi();
    renderApp(PATH);
    const again = await textBox();
    await waitFor(() => expect(again.value).toBe('A line to say tomorrow.'));
    expect(screen.getByText('23 / 10,000 characters')).toBeTruthy();
  }, 20_000);

  it("never shows another user's draft, and leaves it until this user types", async () => {
    localStorage.setItem(storageKeys.ttsDraft, JSON.stringify({ user_id: 'u2', text: 'Not yours.' }));
    const calls = stubApi({ userId: 'u1' });
    renderApp(PATH);
    const box = await textBox();
    await waitFor(() => expect(calls).toContain('GET /v1/user'));
    await screen.findByText('Rachel', {}, { timeout: 5000 });
    expect(box.value).toBe('');
    expect(JSON.parse(storedDraft() ?? 'null')).toEqual({ user_id: 'u2', text: 'Not yours.' });
    fireEvent.change(box, { target: { value: 'Mine.' } });
    expect(JSON.parse(storedDraft() ?? 'null')).toEqual({ user_id: 'u1', text: 'Mine.' });
  });

  it('forgets the draft when the box is emptied, and on sign-out with the other app keys', async () => {
    stubApi();
    renderApp(PATH);
    const box = await textBox();
    await waitFor(() => expect(screen.getByText('Rachel')).toBeTruthy(), { timeout: 5000 });
    fireEvent.change(box, { target: { value: 'Soon gone.' } });
    await waitFor(() => expect(storedDraft()).not.toBeNull());
    fireEvent.change(box, { target: { value: '' } });
    expect(storedDraft()).toBeNull();

    fireEvent.change(box, { target: { value: 'Gone at sign-out.' } });
    // accounts §4: sign-out removes every xi: key but the theme.
    expect(clearAppStorage([storageKeys.theme])).toContain(storageKeys.ttsDraft);
    expect(storedDraft()).toBeNull();
  });

  it('reads only a well-formed draft of this user', () => {
    expect(parseTextDraft(JSON.stringify({ user_id: 'u1', text: 'Hi' }), 'u1')).toBe('Hi');
    expect(parseTextDraft(JSON.stringify({ user_id: 'u2', text: 'Hi' }), 'u1')).toBe('');
    expect(parseTextDraft(JSON.stringify({ user_id: 'u1', text: 42 }), 'u1')).toBe('');
    expect(parseTextDraft('{"user_id": broken', 'u1')).toBe('');
    expect(parseTextDraft('null', 'u1')).toBe('');
    expect(parseTextDraft(null, 'u1')).toBe('');
  });
});

describe('the recent generations on the text-to-speech page', () => {
  const item = makeHistoryItem({ history_item_id: 'h1', text: 'Hello from the history.' });
  const linkOnly = { feedback_enabled: true, tts_video_generation: false };

  async function findRecentRow(): Promise<HTMLElement> {
    const list = await screen.findByRole('region', { name: 'Recent generations' }, { timeout: 5000 });
    const text = await within(list).findByText('Hello from the history.', {}, { timeout: 5000 });
    const row = text.closest('li');
    if (!row) throw new Error('no row');
    return row;
  }

  it('rates and shares an item as the history page does', async () => {
    stubApi({ history: [item], user: makeUser({ feature_configs: linkOnly }) });
    renderApp(PATH);
    const row = await findRecentRow();
    await waitFor(() => expect(within(row).getByRole('group', { name: 'Rate this audio' })).toBeTruthy());
    expect(within(row).getByRole('button', { name: 'Good audio' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: /^Download/ })).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: /^Share/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Share with your community' });
    expect(await within(dialog).findByRole('link', { name: 'Share on X' })).toBeTruthy();
  });

  it('offers neither where feedback is off and the tier shares nothing', async () => {
    const calls = stubApi({
      history: [item],
      user: makeUser({
        feature_configs: { feedback_enabled: false, tts_video_generation: false },
        subscription: { ...makeSubscription(), tier: 'enterprise' },
      }),
    });
    renderApp(PATH);
    const row = await findRecentRow();
    await waitFor(() => expect(within(row).getByRole('button', { name: /^Play/ })).toBeTruthy());
    // Once the user document is in, neither appears.
    await waitFor(() => expect(calls).toContain('GET /v1/user'));
    await act(async () => {});
    expect(within(row).queryByRole('group', { name: 'Rate this audio' })).toBeNull();
    expect(within(row).queryByRole('button', { name: /^Share/ })).toBeNull();
  });

  it('names every voice of a dialogue item', async () => {
    const dialogue = makeHistoryItem({
      history_item_id: 'h1',
      text: 'Hello from the history.',
      voice_name: 'Rachel',
      dialogue: [
        { text: 'Hello', voice_id: 'v1', voice_name: 'Rachel' },
        { text: 'Hi', voice_id: 'v2', voice_name: 'Adam' },
        { text: 'Bye', voice_id: 'v1', voice_name: 'Rachel' },
      ],
    });
    stubApi({ history: [dialogue] });
    renderApp(PATH);
    const row = await findRecentRow();
    expect(within(row).getByText(/^Rachel, Adam ·/)).toBeTruthy();
  });
});
