import type { SharedItemResponse } from '@parla/contracts';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../app/providers';
import { createAppRoutes } from '../app/router';
import { formatDate, fromUnixSeconds } from '../lib/format-date';
import { createQueryClient } from '../lib/query-client';
import { apiError, json } from '../test/billing-fixture';

const shared: SharedItemResponse = {
  share_link_id: 'Ab3dEf6hIj9kLm2nOp5q',
  text: 'Hello from a shared line.',
  voice_name: 'Rachel',
  public_user_name: 'Ada',
  date_unix: 1_750_000_000,
  duration_ms: 1800,
  content_type: 'audio/mpeg',
  dialogue: null,
};

/** Nobody is signed in; the shared item answers with `answer`. */
function stubApi(answer: () => Response) {
  const calls: Array<{ key: string; headers: Headers }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
      calls.push({ key, headers: new Headers(init?.headers) });
      if (key === 'GET /v1/shared-history/Ab3dEf6hIj9kLm2nOp5q') return answer();
      return apiError(401, 'unauthorized', 'Sign in first.');
    }),
  );
  return calls;
}

function renderApp(path = '/share/Ab3dEf6hIj9kLm2nOp5q') {
  const router = createMemoryRouter(createAppRoutes(), { initialEntries: [path] });
  render(<Providers router={router} queryClient={createQueryClient()} />);
  return router;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('/share/:share_link_id (public, no sign-in)', () => {
  it('shows the text, the voice, who shared it and when, and plays the public audio', async () => {
    const calls = stubApi(() => json(shared));
    const router = renderApp();
    const article = await screen.findByRole(
      'article',
      { name: 'Listen to this text to speech' },
      { timeout: 5000 },
    );
    expect(within(article).getByText('Hello from a shared line.')).toBeTruthy();
    expect(article.textContent).toContain('Shared by Ada');
    expect(article.textContent).toContain('Voice: Rachel');
    expect(within(article).getByText(formatDate(fromUnixSeconds(shared.date_unix)))).toBeTruthy();
    // The app's own bottom player holds the public audio, ready for the play button.
    const bar = await screen.findByRole('region', { name: 'Audio player' }, { timeout: 5000 });
    expect(bar.textContent).toContain('Rachel');
    const media = document.querySelector('audio');
    await waitFor(() =>
      expect(media?.getAttribute('src')).toBe('/v1/shared-history/Ab3dEf6hIj9kLm2nOp5q/audio'),
    );
    expect(within(article).getByRole('button', { name: 'Play' })).toBeTruthy();
    const download = within(article).getByRole('link', { name: 'Download' });
    expect(download.getAttribute('href')).toBe('/v1/shared-history/Ab3dEf6hIj9kLm2nOp5q/audio');
    expect(download.getAttribute('download')).toBe('Parla_2025-06-15_Rachel_shared.mp3');
    expect(within(article).getByRole('link', { name: 'Make your own with Parla' }).getAttribute('href')).toBe(
      '/app/sign-up',
    );
    expect(router.state.location.pathname).toBe('/share/Ab3dEf6hIj9kLm2nOp5q');
    const call = calls.find((c) => c.key === 'GET /v1/shared-history/Ab3dEf6hIj9kLm2nOp5q');
    expect(call?.headers.has('authorization')).toBe(false);
    await waitFor(() => expect(document.title).toContain('Shared audio'));
  }, 20_000);

  it('names "a Parla user" when the sharer has no public name', async () => {
    stubApi(() => json({ ...shared, public_user_name: null }));
    renderApp();
    const article = await screen.findByRole('article', {}, { timeout: 5000 });
    expect(article.textContent).toContain('Shared by a Parla user');
  });

  it('shows a dialogue line by line with its speakers', async () => {
    stubApi(() =>
      json({
        ...shared,
        text: 'Hi. Hello. Bye.',
        dialogue: [
          { text: 'Hi.', voice_name: 'Sarah' },
          { text: 'Hello.', voice_name: 'Kevin' },
          { text: 'Bye.', voice_name: 'Sarah' },
        ],
      }),
    );
    renderApp();
    const dialogue = await screen.findByRole('list', { name: 'Dialogue' }, { timeout: 5000 });
    const lines = within(dialogue).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent)).toEqual(['SarahHi.', 'KevinHello.', 'SarahBye.']);
    // Every voice of the dialogue is named, once each.
    expect(screen.getByRole('article').textContent).toContain('Voices: Sarah, Kevin');
  });

  it('says a link that no longer works so, kindly', async () => {
    stubApi(() => apiError(404, 'share_link_not_found', 'This share link does not exist.'));
    renderApp();
    expect(
      await screen.findByRole('heading', { name: 'This share link no longer works' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Make your own with Parla' })).toBeTruthy();
  });

  it('offers Try again after another failure', async () => {
    let fail = true;
    stubApi(() => (fail ? apiError(429, 'too_many_requests', 'Slow down a little.') : json(shared)));
    renderApp();
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toBe('Slow down a little.');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Hello from a shared line.')).toBeTruthy();
  });
});
