// @vitest-isolate: in the shared jsdom of the `web` project, on a fresh clone's file order and a loaded
// machine, the whole-app test below saw the bell without its count for 15 s (2 of 4 runs; alone it passes).
// The cause is not found yet: run alone (vitest.config.ts) like the sidebar's test.
import type { UserMessage } from '@parla/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../../lib/access-token';
import { createQueryClient } from '../../../lib/query-client';
import { apiError, json } from '../../../test/billing-fixture';
import { renderApp } from '../../../test/render-app';
import { makeUser } from '../../../test/user-fixture';
import { ToastProvider } from '../../../ui/toast-provider';
import { messagesPollIntervalMs } from '../api/list-user-messages';
import { NotificationsBell, notificationsLabel } from './notifications-bell';

const message = (overrides: Partial<UserMessage>): UserMessage => ({
  message_id: 'm1',
  severity: 'info',
  title: 'Hello',
  description: '',
  needs_attention: false,
  create_date_unix_ms: Date.now() - 5 * 60_000,
  has_been_read: false,
  link: null,
  ...overrides,
});

/** A signed-in user and a small server keeping the messages' read state. */
function stubServer(messages: UserMessage[]) {
  setAccessToken('t1');
  const calls: string[] = [];
  const state = messages.map((m) => ({ ...m }));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
      calls.push(key);
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/user/messages') {
        return json({ messages: state, unread_count: state.filter((m) => !m.has_been_read).length });
      }
      if (key === 'POST /v1/user/messages/read-all') {
        for (const m of state) m.has_been_read = true;
        return json({ status: 'ok' });
      }
      const read = key.match(/^POST \/v1\/user\/messages\/([^/]+)\/read$/);
      if (read) {
        const found = state.find((m) => m.message_id === read[1]);
        if (!found) return apiError(404, 'resource_not_found');
        found.has_been_read = true;
        return json({ status: 'ok' });
      }
      if (/^POST \/v1\/user\/messages\/[^/]+\/events$/.test(key)) return json({ status: 'ok' });
      return apiError(404, 'not_found');
    }),
  );
  return calls;
}

const bell = (name: string) => screen.findByRole('button', { name }, { timeout: 5000 });
const openMenu = async (name: string) => {
  fireEvent.keyDown(await bell(name), { key: 'Enter' });
  return screen.findByRole('menu');
};

/** The bell alone, with what it needs (data, router, toasts): the shell around it is not under test here. */
function renderBell(path = '/app/usage') {
  const router = createMemoryRouter([{ path: '*', element: <NotificationsBell /> }], {
    initialEntries: [path],
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider position="bottom-right">
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return router;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
});

describe('the notifications bell', () => {
  it('sits in the app shell’s header once signed in', async () => {
    stubServer([message({ message_id: 'm1' }), message({ message_id: 'm2' })]);
    renderApp('/app/developers/usage');
    // The whole app loads here (router, lazy page, session, then the messages): on the loaded CI machine
    // that took over 5 s, so this waits up to 15 s of the test's 20.
    const header = await screen.findByRole('banner', {}, { timeout: 15_000 });
    expect(
      await within(header).findByRole('button', { name: 'Notifications, 2 unread' }, { timeout: 15_000 }),
    ).toBeTruthy();
  });

  it('names the unread count', () => {
    expect(notificationsLabel(0)).toBe('Notifications');
    expect(notificationsLabel(2)).toBe('Notifications, 2 unread');
  });

  it('shows the unread count, marks one read when chosen and all with "Mark all as read"', async () => {
    const calls = stubServer([
      message({ message_id: 'm2', severity: 'error', title: 'Your subscription payment failed' }),
      message({ message_id: 'm1', severity: 'warning', title: 'Your credits are running low' }),
      message({ message_id: 'm0', severity: 'success', title: 'Old news', has_been_read: true }),
    ]);
    renderBell();
    const button = await bell('Notifications, 2 unread');
    expect(button.textContent).toContain('2');

    const menu = await openMenu('Notifications, 2 unread');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Mark all as read',
      expect.stringMatching(/^Unread\. Error: Your subscription payment failed5 minutes ago/),
      expect.stringMatching(/^Unread\. Warning: Your credits are running low/),
      expect.stringMatching(/^Success: Old news/),
    ]);
    fireEvent.click(within(menu).getByRole('menuitem', { name: /Your credits are running low/ }));
    await waitFor(() => expect(calls).toContain('POST /v1/user/messages/m1/read'));
    // The open menu hides the rest of the page from assistive tech, so the button is read directly.
    await waitFor(() => expect(button.getAttribute('aria-label')).toBe('Notifications, 1 unread'));
    // A message without a link keeps the menu open, now shown read.
    const stillOpen = screen.getByRole('menu');
    await waitFor(() =>
      expect(
        within(stillOpen).getByRole('menuitem', { name: /Your credits are running low/ }).textContent,
      ).toMatch(/^Warning:/),
    );

    fireEvent.click(within(stillOpen).getByRole('menuitem', { name: 'Mark all as read' }));
    await waitFor(() => expect(button.getAttribute('aria-label')).toBe('Notifications'));
    expect(calls).toContain('POST /v1/user/messages/read-all');
    expect(
      within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Mark all as read' }).dataset.disabled,
    ).toBe('');
  });

  it('opens a message’s link, marks it read and records the click', async () => {
    const calls = stubServer([
      message({
        message_id: 'm9',
        title: 'Invitation to Acme',
        link: '/app/subscription',
        needs_attention: true,
      }),
    ]);
    const router = renderBell();
    const menu = await openMenu('Notifications, 1 unread');
    expect(within(menu).getByText('Needs attention')).toBeTruthy();
    fireEvent.click(within(menu).getByRole('menuitem', { name: /Invitation to Acme/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/subscription'));
    await waitFor(() =>
      expect(calls).toEqual(
        expect.arrayContaining(['POST /v1/user/messages/m9/read', 'POST /v1/user/messages/m9/events']),
      ),
    );
  });

  it('says so when there is nothing, and polls at a modest interval', async () => {
    stubServer([]);
    renderBell();
    const menu = await openMenu('Notifications');
    expect(await within(menu).findByText(/No notifications yet/)).toBeTruthy();
    expect(messagesPollIntervalMs).toBeGreaterThanOrEqual(30_000);
  });

  it('stays quiet when the messages cannot be loaded', async () => {
    setAccessToken('t1');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => apiError(404, 'not_found')),
    );
    renderBell();
    const menu = await openMenu('Notifications');
    expect(await within(menu).findByText(/could not be loaded/, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByText('Something went wrong, please try again later.')).toBeNull();
  });
});
