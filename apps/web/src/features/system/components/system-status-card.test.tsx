import type { HealthResponse } from '@parla/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeModels, describeRole, formatQueue, SystemStatusCard } from './system-status-card';

const report: HealthResponse = {
  status: 'ok',
  version: '0.1.0',
  role: 'all',
  uptime_seconds: 3725,
  checks: {
    database: { ok: true, latency_ms: 2.4 },
    engines: { ok: true, latency_ms: 0.4, queue_length: 0, oldest_wait_ms: 0 },
  },
  models: [],
};

describe('formatQueue', () => {
  it('says nothing with no queue, and how many wait and for how long otherwise', () => {
    expect(formatQueue({ ok: true, latency_ms: 1, queue_length: 0, oldest_wait_ms: 0 })).toBeUndefined();
    expect(formatQueue({ ok: true, latency_ms: 1, queue_length: 3, oldest_wait_ms: 1234 })).toBe(
      '3 waiting · oldest 1.2 s',
    );
  });
});

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
    // One process doing everything (role `all`) is the usual case: nothing to say (issue 26 item 7).
    expect(screen.getByText('Version 0.1.0 · up 1 h 2 min')).toBeTruthy();
    expect(screen.queryByText(/role/)).toBeNull();
  });

  it('names a split process’s role in words', () => {
    expect(describeRole('all')).toBeUndefined();
    expect(describeRole('api')).toBe('web and API process');
    expect(describeRole('worker')).toBe('background worker');
  });

  it('announces only the overall status: the rows, whose latencies change every refresh, stay quiet', async () => {
    vi.stubGlobal('fetch', async () => json(report));
    renderCard();
    await waitFor(() => expect(screen.getByText('Operational')).toBeTruthy());
    const liveRegions = document.querySelectorAll('[aria-live]');
    expect(liveRegions).toHaveLength(1);
    expect(liveRegions[0]?.textContent).toBe('Operational');
    for (const row of screen.getAllByRole('listitem')) expect(row.closest('[aria-live]')).toBeNull();
  });

  it('keeps the refresh button focusable while fetching, and ignores clicks until the answer', async () => {
    let answer: (response: Response) => void = () => {};
    const fetch = vi.fn(
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    vi.stubGlobal('fetch', fetch);
    renderCard();
    const button = screen.getByRole('button', { name: 'Check again' });
    button.focus();
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.hasAttribute('disabled')).toBe(false);
    fireEvent.click(button);
    expect(fetch).toHaveBeenCalledTimes(1);

    answer(json(report));
    await waitFor(() => expect(button.getAttribute('aria-disabled')).toBe('false'));
    expect(document.activeElement).toBe(button);
    fireEvent.click(button);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
  });

  it('shows a 503 report as degraded with the failing check down', async () => {
    const degraded: HealthResponse = {
      ...report,
      status: 'degraded',
      checks: {
        ...report.checks,
        engines: {
          ok: false,
          latency_ms: 5000,
          message: 'the engines are saturated: 7 syntheses waiting, a workspace for 6.2 s',
          queue_length: 7,
          oldest_wait_ms: 6200,
        },
      },
    };
    vi.stubGlobal('fetch', async () => json(degraded, 503));
    renderCard();
    await waitFor(() => expect(screen.getByText('Degraded')).toBeTruthy());
    expect(screen.getByText('down')).toBeTruthy();
    expect(
      screen.getByText('the engines are saturated: 7 syntheses waiting, a workspace for 6.2 s'),
    ).toBeTruthy();
    expect(screen.getByText('5000 ms')).toBeTruthy();
  });

  it('adds a row for the models: how many are available, and why the first unavailable one is not', async () => {
    expect(describeModels([])).toBeUndefined();
    const models: HealthResponse['models'] = [
      { id: 'moonshine-tiny', available: true, reason: null },
      { id: 'kokoro-82m', available: false, reason: 'kokoro-82m/model.onnx: checksum mismatch' },
      { id: 'piper-joe', available: false, reason: 'not fetched: its 3 files are missing' },
    ];
    expect(describeModels(models)).toEqual({
      ok: false,
      summary: '1 of 3 available',
      detail:
        'kokoro-82m: kokoro-82m/model.onnx: checksum mismatch · piper-joe: not fetched: its 3 files are missing',
    });
    vi.stubGlobal('fetch', async () => json({ ...report, models }));
    renderCard();
    // An unavailable model leaves the server operational: everything that does not need it works.
    await waitFor(() => expect(screen.getByText('Operational')).toBeTruthy());
    const rows = screen.getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    const row = rows[2] as HTMLElement;
    expect(within(row).getByText('Models')).toBeTruthy();
    expect(
      within(row).getByText(/1 of 3 available · kokoro-82m: kokoro-82m\/model\.onnx: checksum mismatch/),
    ).toBeTruthy();
    expect(within(row).getByText('partial')).toBeTruthy();
  });

  it('shows an error state when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    renderCard();
    await waitFor(() => expect(screen.getByText('Status unavailable')).toBeTruthy());
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Network error');
    // An alert inside a live region would be read twice.
    expect(alert.parentElement?.closest('[aria-live]')).toBeNull();
  });
});
