import type { HealthResponse } from '@parla/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SystemStatusCard } from './system-status-card';

const report: HealthResponse = {
  status: 'ok',
  version: '0.1.0',
  role: 'all',
  uptime_seconds: 3725,
  checks: { database: { ok: true, latency_ms: 2.4 }, engines: { ok: true, latency_ms: 0.4 } },
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderCard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SystemStatusCard />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('<SystemStatusCard>', () => {
  it('shows a loading state, then both checks as ok with latency', async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL) => json(report));
    vi.stubGlobal('fetch', fetch);
    renderCard();
    expect(screen.getByRole('region', { name: 'System status' }).getAttribute('aria-busy')).toBe('true');
    await waitFor(() => expect(screen.getByText('Operational')).toBeTruthy());
    expect(fetch.mock.calls[0]?.[0]).toBe('/health');
    const rows = screen.getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0] as HTMLElement).getByText('Database')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('2 ms')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('ok')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('<1 ms')).toBeTruthy();
    expect(screen.getByText(/Version 0\.1\.0 · role all · up 1 h 2 min/)).toBeTruthy();
  });

  it('shows a 503 report as degraded with the failing check down', async () => {
    const degraded: HealthResponse = {
      ...report,
      status: 'degraded',
      checks: {
        ...report.checks,
        engines: { ok: false, latency_ms: 5000, message: 'Engine pool not ready' },
      },
    };
    vi.stubGlobal('fetch', async () => json(degraded, 503));
    renderCard();
    await waitFor(() => expect(screen.getByText('Degraded')).toBeTruthy());
    expect(screen.getByText('down')).toBeTruthy();
    expect(screen.getByText('Engine pool not ready')).toBeTruthy();
    expect(screen.getByText('5000 ms')).toBeTruthy();
  });

  it('shows an error state when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    renderCard();
    await waitFor(() => expect(screen.getByText('Status unavailable')).toBeTruthy());
    expect(screen.getByRole('alert').textContent).toContain('Network error');
  });
});
