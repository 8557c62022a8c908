import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAccessToken, setAccessToken } from '../lib/access-token';
import { authChannelName, signInPath } from '../lib/auth/sign-out';
import { listSidebarGroups } from '../lib/nav-groups';
import { createQueryClient } from '../lib/query-client';
import { makeUser } from '../test/user-fixture';
import { Providers } from './providers';
import { createAppRoutes } from './router';

const health = {
  status: 'ok',
  version: '0.1.0',
  role: 'all',
  uptime_seconds: 12,
  checks: {
    database: { ok: true, latency_ms: 1 },
    engines: { ok: true, latency_ms: 3, queue_length: 0, oldest_wait_ms: 0 },
  },
  models: [],
};

/** The landing page's heading: what Parla does. */
const landingTitle = 'Turn text into natural speech';

/** Renders the whole app, providers and shell included, at a path. */
function renderApp(path: string) {
  const router = createMemoryRouter(createAppRoutes(), { initialEntries: [path] });
  render(<Providers router={router} queryClient={createQueryClient()} />);
  return router;
}

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () => new Response(JSON.stringify(health), { headers: { 'content-type': 'application/json' } }),
    ),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
  localStorage.clear();
  document.documentElement.className = '';
  document.documentElement.removeAttribute('data-theme');
});

describe('the app shell', () => {
  it('shows the landing page with the shell landmarks', async () => {
    renderApp('/');
    expect(
      await screen.findByRole('heading', { level: 1, name: landingTitle }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Skip to content' }).getAttribute('href')).toBe('#main');
    expect(screen.getByRole('main').id).toBe('main');
    const apiLinks = screen.getAllByRole('link', { name: /API reference/ });
    expect(apiLinks.every((link) => link.getAttribute('href') === '/docs')).toBe(true);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Home', 'Dubbing', 'Pricing']);
    // The app's areas are the sidebar's business, not the marketing header's.
    expect(screen.queryByRole('link', { name: 'Voice library' })).toBeNull();
    // Signed out, the page leads with the way in.
    expect((await screen.findByRole('link', { name: 'Sign up free' })).getAttribute('href')).toBe(
      '/app/sign-up',
    );
    await waitFor(() => expect(screen.getByText('Operational')).toBeTruthy());
    await waitFor(() => expect(document.title).toBe('Parla'));
  });

  it('offers the navigation on phones through the menu, a sheet that closes on following a link', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/v1/auth/refresh'
          ? new Response(JSON.stringify({ detail: { status: 'unauthorized', message: 'x' } }), {
              status: 401,
            })
          : new Response(JSON.stringify(health)),
      ),
    );
    const router = renderApp('/');
    await screen.findByRole('heading', { level: 1, name: landingTitle }, { timeout: 5000 });
    await screen.findByRole('link', { name: 'Sign up' });
    const open = screen.getByRole('button', { name: 'Menu' });
    expect(open.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(open);
    const sheet = await screen.findByRole('dialog', { name: 'Menu' });
    expect(open.getAttribute('aria-expanded')).toBe('true');
    const links = within(within(sheet).getByRole('navigation', { name: 'Main' })).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Home', 'Dubbing', 'Pricing']);
    // Signed out, the sheet also leads to sign-in and sign-up.
    expect(within(sheet).getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/app/sign-up');
    fireEvent.click(within(sheet).getByRole('link', { name: 'Pricing' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull());
  });

  it('shows "Page not found" for unbuilt /app pages', async () => {
    renderApp('/app/music');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go home' }).getAttribute('href')).toBe('/');
    await waitFor(() => expect(document.title).toBe('Page not found · Parla'));
  });

  it('shows the sign-in page with toasts top-centre, and moves them bottom-right when leaving it', async () => {
    const router = renderApp('/app/sign-in/forgot-password');
    // The page's file loads lazily; under a busy test run that can take more than the default second.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Reset your password' }, { timeout: 5000 }),
    ).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Forgot password · Parla'));
    expect(document.querySelector('[data-position="top-center"]')).not.toBeNull();
    await act(() => router.navigate('/'));
    expect(document.querySelector('[data-position="bottom-right"]')).not.toBeNull();
  });

  it('sends the old addresses of API keys and usage on to their Developers pages, query kept (issue 26)', async () => {
    const keys = renderApp('/app/settings/api-keys?tab=1');
    await waitFor(() => expect(keys.state.location.pathname).toBe('/app/developers/api-keys'));
    expect(keys.state.location.search).toBe('?tab=1');
    cleanup();
    const usage = renderApp('/app/usage');
    await waitFor(() => expect(usage.state.location.pathname).toBe('/app/developers/usage'));
  });

  it('shows "Page not found" for any unknown path and goes home from it', async () => {
    renderApp('/no/such/page');
    fireEvent.click(await screen.findByRole('link', { name: 'Go home' }, { timeout: 5000 }));
    expect(
      await screen.findByRole('heading', { level: 1, name: landingTitle }, { timeout: 5000 }),
    ).toBeTruthy();
  });

  it('toggles the theme from the header, says whether dark is on, and keeps it under xi:theme', async () => {
    renderApp('/');
    await screen.findByRole('heading', { level: 1, name: landingTitle }, { timeout: 5000 });
    const toggle = screen.getByRole('button', { name: 'Dark theme' });
    const root = document.documentElement;
    expect(root.dataset.theme).toBe('light');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(toggle.getAttribute('title')).toBe('Switch to dark theme');
    fireEvent.click(toggle);
    expect(root.classList.contains('dark')).toBe(true);
    expect(root.dataset.theme).toBe('dark');
    expect(localStorage.getItem('xi:theme')).toBe('dark');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(toggle.getAttribute('title')).toBe('Switch to light theme');
    fireEvent.click(toggle);
    expect(root.classList.contains('dark')).toBe(false);
    expect(root.dataset.theme).toBe('light');
    expect(localStorage.getItem('xi:theme')).toBe('light');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
  });

  it('signs out from the header once, however often it is clicked, and goes to the sign-in page', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/v1/user'
          ? new Response(JSON.stringify(makeUser({ first_name: 'Ada' })))
          : new Response(JSON.stringify(health)),
      ),
    );
    setAccessToken('t1');
    localStorage.setItem('xi:theme', 'dark');
    const otherTab = new BroadcastChannel(authChannelName);
    const received: unknown[] = [];
    otherTab.onmessage = (event) => received.push(event.data);
    const router = renderApp('/');
    await screen.findByRole('heading', { level: 1, name: landingTitle }, { timeout: 5000 });
    // The account menu opens from the keyboard and names who is signed in.
    fireEvent.keyDown(await screen.findByRole('button', { name: 'Account' }), { key: 'Enter' });
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Ada')).toBeTruthy();
    expect(within(menu).getByText('ada@example.test')).toBeTruthy();
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(signInPath));
    // While the sign-out runs (its 1 s delay, accounts §4) the item cannot start another.
    fireEvent.keyDown(screen.getByRole('button', { name: 'Account' }), { key: 'Enter' });
    const again = await screen.findByRole('menuitem', { name: 'Signing out…' });
    expect(again.getAttribute('aria-disabled')).toBe('true');
    // The sign-out takes effect after its delay, and the account menu goes with it.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Account' })).toBeNull(), {
      timeout: 3000,
    });
    expect(getAccessToken()).toBeNull();
    expect(localStorage.getItem('xi:theme')).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(received).toEqual([{ type: 'sign-out' }]);
    otherTab.close();
  });

  it('leads a signed-in visitor on the marketing pages into the app', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/v1/user' ? new Response(JSON.stringify(makeUser())) : new Response(JSON.stringify(health)),
      ),
    );
    setAccessToken('t1');
    renderApp('/');
    await screen.findByRole('heading', { level: 1, name: landingTitle }, { timeout: 5000 });
    await screen.findByRole('button', { name: 'Account' });
    const links = screen.getAllByRole('link', { name: 'Open Parla' });
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.getAttribute('href')).toBe('/app/home');
    expect(screen.queryByRole('link', { name: 'Sign up' })).toBeNull();
  });
  it('shows a visitor Sign in and Sign up in the header at once, not after the session answer (issue 26 item 7)', async () => {
    renderApp('/');
    // The first render, before any answer about the session (a visitor's arrives after the 1 s sign-out
    // delay of accounts §4), already leads in.
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/app/sign-up');
    expect(within(header).getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/app/sign-in');
    await screen.findByRole('heading', { level: 1, name: landingTitle }, { timeout: 5000 });
  });

  it('lists every built audio product on the landing page, and says nothing of the server role "all"', async () => {
    renderApp('/');
    await screen.findByRole('heading', { level: 1, name: landingTitle }, { timeout: 5000 });
    const features = screen.getByRole('region', { name: 'What you can do with Parla' });
    const audio = listSidebarGroups().find((group) => group.section === 'audio')?.entries ?? [];
    expect(audio.map((entry) => entry.title)).toContain('Speech to text');
    for (const entry of audio)
      expect(within(features).getByRole('heading', { level: 3, name: entry.title })).toBeTruthy();
    await screen.findByText(/^Version 0\.1\.0 · up /);
    expect(screen.queryByText(/role all/)).toBeNull();
  });

  it('opens About the models to a visitor, in the site frame, from the shipped catalogue (issue 26 item 7)', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify(health)));
    vi.stubGlobal('fetch', fetch);
    const router = renderApp('/');
    await screen.findByRole('heading', { level: 1, name: landingTitle }, { timeout: 5000 });
    fireEvent.click(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'About the models' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'About the models' }, { timeout: 5000 }),
    ).toBeTruthy();
    // Past the sign-out delay a visitor is still there: no redirect to sign-in.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(router.state.location.pathname).toBe('/app/about/models');
    // The marketing header, not the app's sidebar (which would only lead to sign-in).
    expect(screen.queryByRole('complementary', { name: 'Sidebar' })).toBeNull();
    expect(
      within(screen.getAllByRole('banner')[0] as HTMLElement).getByRole('link', { name: 'Sign up' }),
    ).toBeTruthy();
    // Parla's models by their names; the public ids as aliases with what each stands for.
    expect(screen.getByRole('heading', { level: 3, name: 'Parla Neural v1' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: 'Parla v1' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: 'Parla v1 with audio tags' })).toBeTruthy();
    // Each model with its licence (issue 27).
    expect(screen.getByText('Licence: Apache-2.0 (the model) and MIT (its voices).')).toBeTruthy();
    // The public ids that speak neural, with the classic model that speaks where it cannot.
    const aliases = within(screen.getByRole('table'));
    const row = (id: string) => aliases.getByText(id).closest('tr') as HTMLElement;
    expect(row('eleven_multilingual_v2').textContent).toBe(
      'eleven_multilingual_v2Parla Neural v1 — otherwise Parla v1',
    );
    expect(row('eleven_v3').textContent).toMatch(/Parla Neural v1 — otherwise Parla v1 with audio tags$/);
    expect(row('eleven_flash_v2').textContent).toMatch(/Parla English v1$/);
    // A phone wraps an id after its underscores, not inside a word.
    expect(row('eleven_multilingual_sts_v2').querySelectorAll('td:first-child wbr')).toHaveLength(3);
    expect(row('eleven_flash_v2_5').querySelectorAll('td:first-child wbr')).toHaveLength(2);
    expect(screen.queryByText(/Eleven Multilingual|formant/i)).toBeNull();
    // No call needing a sign-in.
    const urls = fetch.mock.calls.map((call) => String((call as unknown[])[0]));
    expect(urls.filter((url) => url.startsWith('/v1/models'))).toEqual([]);
  });
});
