import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../app/providers';
import { createAppRoutes } from '../app/router';
import { setAccessToken } from '../lib/access-token';
import { createQueryClient } from '../lib/query-client';
import { apiError, json, makeSubscription } from '../test/billing-fixture';
import { makeUser } from '../test/user-fixture';

const DAY = 86_400_000;

function stubApi(stats: (query: URLSearchParams) => Response) {
  setAccessToken('t1');
  const queries: URLSearchParams[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path, search = ''] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/user/subscription') return json(makeSubscription({ character_count: 2500 }));
      if (key === 'GET /v1/models' || key === 'GET /v1/voices')
        return key.endsWith('models') ? json([]) : json({ voices: [] });
      if (key === 'GET /v1/convai/usage')
        return json({
          minutes_used: 12,
          minutes_limit: 15,
          extra_minutes: 0,
          extra_minutes_allowed: false,
          open_conversations: 1,
          concurrency_limit: 4,
        });
      if (key === 'GET /v1/usage/character-stats') {
        const query = new URLSearchParams(search);
        queries.push(query);
        return stats(query);
      }
      return apiError(404, 'not_found');
    }),
  );
  return queries;
}

function renderApp() {
  const router = createMemoryRouter(createAppRoutes(), { initialEntries: ['/app/developers/usage'] });
  render(<Providers router={router} queryClient={createQueryClient()} />);
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
});

describe('/app/developers/usage', () => {
  it('asks for 30 days by day in milliseconds, draws the bars with a table, and shows the quota', async () => {
    const queries = stubApi((query) => {
      const start = Number(query.get('start_unix'));
      const time = Array.from({ length: 30 }, (_, i) => start + i * DAY);
      const series = (value: number) => time.map((_, i) => (i === 29 ? value : 0));
      return json(
        query.get('breakdown_type') === 'model'
          ? { time, usage: { eleven_multilingual_v2: series(2000), eleven_flash_v2_5: series(500) } }
          : { time, usage: { All: series(2500) } },
      );
    });
    renderApp();
    expect(await screen.findByText('2,500', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(/10,000 credits used/)).toBeTruthy();
    // Conversation minutes with agents (accounts §9), and what happens past them on this plan.
    const minutes = await screen
      .findByRole('region', { name: 'Conversation minutes' })
      .catch(() => screen.getByText('Conversation minutes').closest('div')?.parentElement as HTMLElement);
    expect(minutes.textContent).toMatch(/12\s*\/ 15 minutes used/);
    expect(minutes.textContent).toMatch(/new conversations are refused until the period resets/);
    expect(minutes.textContent).toMatch(/1 of 4 conversations open now/);
    const chart = await screen.findByRole('img', { name: /Credits used per day from .*: 2,500 in all/ });
    expect(chart.querySelectorAll('rect').length).toBeGreaterThan(30);
    const first = queries[0];
    expect(first?.get('aggregation_interval')).toBe('day');
    expect(first?.get('breakdown_type')).toBe('none');
    expect(Number(first?.get('end_unix')) - Number(first?.get('start_unix'))).toBeGreaterThan(29 * DAY);
    fireEvent.click(screen.getByRole('radio', { name: 'By model' }));
    await waitFor(() =>
      expect(screen.getByRole('list', { name: 'Legend' }).textContent).toMatch(/eleven_flash_v2_5/),
    );
    const table = screen.getByRole('table', { name: 'Credits used per day' });
    expect(within(table).getAllByRole('row')).toHaveLength(31);
  });

  it('says so when nothing was used', async () => {
    stubApi(() => json({ time: [0], usage: { All: [0] } }));
    renderApp();
    expect(
      await screen.findByText('No credits used in the last 30 days', {}, { timeout: 5000 }),
    ).toBeTruthy();
  });
});
