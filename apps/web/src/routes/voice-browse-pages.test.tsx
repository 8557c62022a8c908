import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { makeVoice } from '../test/catalogue-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';
import { makeOwnVoice, voicePage } from '../test/voices-fixture';

const byType = {
  default: [
    makeVoice({
      voice_id: 'sarah',
      name: 'Sarah',
      description: 'Warm, clear American narrator.',
      labels: { gender: 'female', accent: 'american', language: 'en' },
      preview_url: 'http://localhost/v1/voices/sarah/preview',
    }),
  ],
  personal: [makeOwnVoice({ voice_id: 'c1', name: 'Made Here' })],
  community: [
    makeOwnVoice({ voice_id: 'x1', name: 'From Library', sharing: { status: 'copied' }, is_owner: false }),
  ],
};

function stubApi(voices: Partial<typeof byType> = byType) {
  setAccessToken('t1');
  const queries: URLSearchParams[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const [path = '', search = ''] = url.split('?');
      const query = new URLSearchParams(search);
      if (path === '/v1/user') return json(makeUser());
      if (path === '/v2/voices') {
        queries.push(query);
        return json(voicePage(voices[query.get('voice_type') as keyof typeof byType] ?? []));
      }
      return apiError(404, 'not_found');
    }),
  );
  return queries;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
});

describe('/app/default-voices and /app/workspace-voices', () => {
  it('lists the premade voices with their previews', async () => {
    const queries = stubApi();
    renderApp('/app/default-voices');
    const list = await screen.findByRole('list', { name: 'Default voices' }, { timeout: 5000 });
    const row = within(list).getByRole('listitem', { name: 'Sarah' });
    expect(within(row).getByText('Warm, clear American narrator.')).toBeTruthy();
    expect(within(row).getByText('Female · American · English')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Play the preview of Sarah' })).toBeTruthy();
    expect(queries[0]?.get('voice_type')).toBe('default');
    const nav = screen.getByRole('navigation', { name: 'Voices' });
    expect(within(nav).getByRole('link', { name: 'Default voices' }).getAttribute('aria-current')).toBe(
      'page',
    );
  });

  it('lists the workspace’s voices made here and added from the library', async () => {
    const queries = stubApi();
    renderApp('/app/workspace-voices');
    const made = await screen.findByRole(
      'list',
      { name: 'Voices made in this workspace' },
      { timeout: 5000 },
    );
    expect(within(made).getByText('Made Here')).toBeTruthy();
    const added = await screen.findByRole('list', { name: 'Voices added from the library' });
    expect(within(added).getByText('From Library')).toBeTruthy();
    expect(within(added).getByText('From the library')).toBeTruthy();
    await waitFor(() =>
      expect(queries.map((query) => query.get('voice_type')).sort()).toEqual(['community', 'personal']),
    );
  });

  it('offers a workspace with no voices of its own to clone one or to design one (Free can design)', async () => {
    stubApi({});
    renderApp('/app/workspace-voices');
    const made = await screen.findByRole('region', { name: 'Made in this workspace' }, { timeout: 5000 });
    await within(made).findByText('None yet', {}, { timeout: 5000 });
    expect(within(made).getByRole('link', { name: 'Clone a voice' }).getAttribute('href')).toBe(
      '/app/voice-lab?creationType=cloneVoice',
    );
    expect(within(made).getByRole('link', { name: 'Design a voice' }).getAttribute('href')).toBe(
      '/app/voice-lab?creationType=designVoice',
    );
    const added = screen.getByRole('region', { name: 'Added from the library' });
    await within(added).findByRole('link', { name: 'Browse the library' });
  });
});
