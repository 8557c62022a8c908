import type { VoiceCollection } from '@parla/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { makeVoice } from '../test/catalogue-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';
import { makeCollection, makeOwnVoice, voicePage } from '../test/voices-fixture';

const sarah = makeVoice({ voice_id: 'sarah', name: 'Sarah', labels: { gender: 'female', language: 'en' } });
const clone = makeOwnVoice({ voice_id: 'c1', name: 'My clone' });
const all = [sarah, clone];

interface Call {
  key: string;
  query: URLSearchParams;
  body: unknown;
}

/** A small collections server: the list, create, rename/set voices, delete, and voices by collection. */
function stubApi(initial: VoiceCollection[]) {
  setAccessToken('t1');
  let collections = initial;
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path = '', search = ''] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      const query = new URLSearchParams(search);
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ key, query, body });
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/voices') return json({ voices: all });
      if (key === 'GET /v1/voices/collections') return json({ collections });
      if (key === 'POST /v1/voices/collections') {
        const made = makeCollection({ collection_id: 'new', name: body.name });
        collections = [...collections, made];
        return json(made);
      }
      const id = path.split('/').at(-1);
      if (key.startsWith('PATCH /v1/voices/collections/')) {
        collections = collections.map((each) =>
          each.collection_id === id
            ? {
                ...each,
                ...(body.name && { name: body.name }),
                ...(body.voice_ids && { voice_ids: body.voice_ids }),
              }
            : each,
        );
        return json(collections.find((each) => each.collection_id === id));
      }
      if (key.startsWith('DELETE /v1/voices/collections/')) {
        collections = collections.filter((each) => each.collection_id !== id);
        return json({ collection_id: id, status: 'ok' });
      }
      if (key === 'GET /v2/voices') {
        const ids =
          collections.find((each) => each.collection_id === query.get('collection_id'))?.voice_ids ?? [];
        return json(voicePage(all.filter((voice) => ids.includes(voice.voice_id))));
      }
      return apiError(404, 'not_found');
    }),
  );
  return calls;
}

function renderPage(path = '/app/voice-lab/collections') {
  return renderApp(path);
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
});

describe('/app/voice-lab/collections', () => {
  it('creates a collection, adds voices to it, and removes one', async () => {
    const calls = stubApi([]);
    const router = renderPage();
    expect(
      await screen.findByRole('heading', { name: 'No collections yet' }, { timeout: 5000 }),
    ).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'New collection' })[0] as HTMLElement);
    let dialog = await screen.findByRole('dialog', { name: 'New collection' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Give the collection a name.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Podcast cast' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Collection created')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 2, name: 'Podcast cast' })).toBeTruthy();
    expect(router.state.location.search).toBe('?collection=new');
    expect(await screen.findByRole('heading', { name: 'No voices in this collection' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add or remove voices' }));
    dialog = await screen.findByRole('dialog', { name: 'Voices in Podcast cast' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Sarah/ }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /My clone/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Collection saved')).toBeTruthy();
    expect(calls.find((call) => call.key === 'PATCH /v1/voices/collections/new')?.body).toEqual({
      voice_ids: ['sarah', 'c1'],
    });
    const list = await screen.findByRole('list', { name: 'Voices in Podcast cast' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(
      calls
        .filter((call) => call.key === 'GET /v2/voices')
        .at(-1)
        ?.query.get('collection_id'),
    ).toBe('new');

    fireEvent.click(within(list).getByRole('button', { name: 'Remove Sarah from Podcast cast' }));
    expect(await screen.findByText('Removed from the collection')).toBeTruthy();
    expect(calls.filter((call) => call.key === 'PATCH /v1/voices/collections/new').at(-1)?.body).toEqual({
      voice_ids: ['c1'],
    });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
  });

  it('renames and deletes a collection (once confirmed)', async () => {
    const calls = stubApi([
      makeCollection({ collection_id: 'a', name: 'Audiobook', voice_ids: ['sarah'] }),
      makeCollection({ collection_id: 'b', name: 'Ads' }),
    ]);
    renderPage('/app/voice-library/collections?collection=b');
    expect(await screen.findByRole('heading', { level: 2, name: 'Ads' }, { timeout: 5000 })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Collections' });
    fireEvent.click(within(nav).getByRole('button', { name: /Audiobook/ }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Audiobook' })).toBeTruthy();
    expect(
      within(await screen.findByRole('list', { name: 'Voices in Audiobook' })).getByText('Sarah'),
    ).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    const rename = await screen.findByRole('dialog', { name: 'Rename Audiobook' });
    fireEvent.change(within(rename).getByLabelText('Name'), { target: { value: 'Audiobook cast' } });
    fireEvent.click(within(rename).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Audiobook cast' })).toBeTruthy();
    expect(calls.find((call) => call.key === 'PATCH /v1/voices/collections/a')?.body).toEqual({
      name: 'Audiobook cast',
    });

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Audiobook cast?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete collection' }));
    expect(await screen.findByText('Collection deleted')).toBeTruthy();
    expect(calls.some((call) => call.key === 'DELETE /v1/voices/collections/a')).toBe(true);
    expect(await screen.findByRole('heading', { level: 2, name: 'Ads' })).toBeTruthy();
  });
});
