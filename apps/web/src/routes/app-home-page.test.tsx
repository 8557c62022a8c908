import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from '../app/providers';
import { createAppRoutes } from '../app/router';
import { greetingFor, listQuickActions } from '../features/home/home-rules';
import { setAccessToken } from '../lib/access-token';
import { createQueryClient } from '../lib/query-client';
import { storageKeys } from '../lib/storage-keys';
import { json, makeSubscription } from '../test/billing-fixture';
import { stubResizeObserver } from '../test/dom-stubs';
import { makeHistoryItem } from '../test/history-fixture';
import { makeChecklist } from '../test/onboarding-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';
import { callsTo, cleanUpWorkspaceTest, stubWorkspaceApi } from '../test/workspace-fixture';

afterEach(cleanUpWorkspaceTest);

const greeting = /^Good (morning|afternoon|evening), Ada$/;

describe('greetingFor', () => {
  it('greets by the hour of the day, with the first name when there is one', () => {
    expect(greetingFor(8, 'Ada')).toBe('Good morning, Ada');
    expect(greetingFor(12, 'Ada')).toBe('Good afternoon, Ada');
    expect(greetingFor(19, ' ')).toBe('Good evening');
    expect(greetingFor(2, null)).toBe('Good evening');
  });
});

describe('/app/home (issue 18)', { timeout: 20_000 }, () => {
  it('a brand-new user: greeting, a quick action per built product, empty history, credits and the checklist', async () => {
    stubResizeObserver();
    const calls = stubWorkspaceApi({
      'GET /v1/user': () => json(makeUser({ first_name: 'Ada' })),
      'GET /v1/history': () =>
        json({ history: [], last_history_item_id: null, has_more: false, scanned_until: null }),
      'GET /v1/user/subscription': () =>
        json(makeSubscription({ character_count: 0, character_limit: 10_000 })),
      'GET /v1/user/onboarding-checklist': () => json(makeChecklist()),
    });
    renderApp('/app/home');
    expect(await screen.findByRole('heading', { level: 1, name: greeting }, { timeout: 5000 })).toBeTruthy();

    const actions = within(screen.getByRole('region', { name: 'Quick actions' })).getAllByRole('link');
    expect(actions.map((link) => link.getAttribute('href'))).toEqual(listQuickActions().map((a) => a.path));
    expect(actions.map((link) => link.getAttribute('href'))).toContain(
      '/app/speech-synthesis/text-to-speech',
    );

    const recent = screen.getByRole('region', { name: 'Recent generations' });
    expect(await within(recent).findByText('Nothing generated yet')).toBeTruthy();
    expect(
      within(recent).getByRole('link', { name: 'Generate your first speech' }).getAttribute('href'),
    ).toBe('/app/speech-synthesis/text-to-speech');
    expect(calls.find((call) => call.key === 'GET /v1/history')?.query.get('page_size')).toBe('5');

    const main = screen.getByRole('main');
    const credits = await within(main).findByRole('region', { name: 'Credits' });
    expect(credits.textContent).toContain('0 used');
    expect(credits.textContent).toContain('10,000 left');
    expect(await within(main).findByRole('heading', { name: 'Get started with Parla' })).toBeTruthy();
  });

  it('on a first visit asks GET /v1/user once, and the page’s data alongside it, not after (issue 26 item 7)', async () => {
    stubResizeObserver();
    let historyAsked = () => {};
    const historyRequested = new Promise<void>((resolve) => {
      historyAsked = resolve;
    });
    const calls = stubWorkspaceApi({
      // The user answers only once the latest generations have been asked for: a page that asked for its
      // data after the user had arrived would wait here for ever.
      'GET /v1/user': async () => {
        await historyRequested;
        return json(makeUser({ first_name: 'Ada' }));
      },
      'GET /v1/history': () => {
        historyAsked();
        return json({ history: [], last_history_item_id: null, has_more: false, scanned_until: null });
      },
      'GET /v1/user/subscription': () =>
        json(makeSubscription({ character_count: 0, character_limit: 10_000 })),
      'GET /v1/user/onboarding-checklist': () => json(makeChecklist()),
    });
    // A new page in a browser that holds a sign-in: no token in memory yet, the refresh cookie to exchange.
    setAccessToken(null);
    localStorage.setItem(storageKeys.hasSession, '1');
    const queryClient = createQueryClient();
    const router = createMemoryRouter(createAppRoutes(queryClient), { initialEntries: ['/app/home'] });
    render(<Providers router={router} queryClient={queryClient} />);

    expect(await screen.findByRole('heading', { level: 1, name: greeting }, { timeout: 5000 })).toBeTruthy();
    const main = screen.getByRole('main');
    expect(await within(main).findByText('Nothing generated yet')).toBeTruthy();
    expect((await within(main).findByRole('region', { name: 'Credits' })).textContent).toContain('0 used');
    expect(await within(main).findByRole('heading', { name: 'Get started with Parla' })).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/auth/refresh')).toHaveLength(1);
    expect(callsTo(calls, 'GET /v1/user')).toHaveLength(1);
    expect(callsTo(calls, 'GET /v1/history')).toHaveLength(1);
    expect(callsTo(calls, 'GET /v1/user/subscription')).toHaveLength(1);
    // The checklist is asked for too; the shell polls it while it is active, so it is not counted.
    expect(callsTo(calls, 'GET /v1/user/onboarding-checklist').length).toBeGreaterThanOrEqual(1);
  });

  it('lists the newest generations to play in the bottom player, rate, download and share', async () => {
    stubResizeObserver();
    const items = [
      makeHistoryItem({ history_item_id: 'h1', text: 'Welcome to the show.', voice_name: 'Rachel' }),
      makeHistoryItem({
        history_item_id: 'h2',
        text: 'Hi. Hello there.',
        voice_name: 'Rachel',
        dialogue: [
          { text: 'Hi.', voice_id: 'v1', voice_name: 'Rachel' },
          { text: 'Hello there.', voice_id: 'v2', voice_name: 'Adam' },
        ],
      }),
      makeHistoryItem({
        history_item_id: 'h3',
        text: 'Converted words.',
        source: 'STS',
        voice_name: 'Bella',
      }),
    ];
    stubWorkspaceApi({
      'GET /v1/user': () => json(makeUser({ first_name: 'Ada' })),
      'GET /v1/history': () =>
        json({ history: items, last_history_item_id: 'h3', has_more: true, scanned_until: null }),
      'GET /v1/user/subscription': () => json(makeSubscription()),
      'GET /v1/user/onboarding-checklist': () => json(makeChecklist({ started: false })),
    });
    renderApp('/app/home');
    const recent = await screen.findByRole('region', { name: 'Recent generations' }, { timeout: 5000 });
    await within(recent).findByText('Welcome to the show.');
    const rows = within(recent).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]?.textContent).toContain('Text to speech');
    // A dialogue names all its voices; a conversion says what made it.
    expect(rows[1]?.textContent).toContain('Rachel, Adam');
    expect(rows[1]?.textContent).toContain('Text to dialogue');
    expect(rows[2]?.textContent).toContain('Speech to speech');
    expect(within(recent).getByRole('link', { name: 'View all history' })).toBeTruthy();

    const first = within(rows[0] as HTMLElement);
    expect(first.getByRole('button', { name: 'Download “Welcome to the show.”' })).toBeTruthy();
    expect(first.getByRole('button', { name: 'Good audio' })).toBeTruthy();
    fireEvent.click(first.getByRole('button', { name: 'Share “Welcome to the show.”' }));
    // The share dialog (the video one: the flag is on), closed by its ×.
    const share = await screen.findByRole('dialog');
    fireEvent.click(within(share).getByRole('button', { name: 'Close dialog' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(first.getByRole('button', { name: 'Play “Welcome to the show.”' }));
    const player = await screen.findByRole('region', { name: 'Audio player' });
    expect(player.textContent).toContain('Rachel');
    // A workspace whose checklist is over sees no checklist.
    expect(screen.queryByRole('heading', { name: 'Get started with Parla' })).toBeNull();
  });
});
