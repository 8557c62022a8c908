import type { AudioNativeAnalytics, AudioNativeProject } from '@parla/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import { callsTo, cleanUpWorkspaceTest, stubWorkspaceApi } from '../test/workspace-fixture';
import { parseOrigins } from './audio-native-settings-page';

const SNIPPET =
  '<div class="parla-audio-native" data-project-id="p1"></div>\n<script src="http://localhost/audio-native.js" async></script>';

function project(overrides: Partial<AudioNativeProject> = {}): AudioNativeProject {
  return {
    project_id: 'p1',
    name: 'Tides',
    enabled: true,
    status: 'ready',
    state: 'default',
    voice_id: 'v1',
    model_id: 'm1',
    settings: {
      title: 'Why the tide turns',
      image: '',
      author: 'A. Writer',
      small: false,
      text_color: '#000000',
      background_color: '#FFFFFF',
      sessionization: 30,
      status: 'ready',
    },
    allowed_origins: [],
    page_url: null,
    auto_publish: true,
    published_snapshot_id: 's1',
    duration_secs: 12,
    html_snippet: SNIPPET,
    created_at_unix: 1_750_000_000,
    ...overrides,
  };
}

afterEach(cleanUpWorkspaceTest);

describe('/app/audio-native', () => {
  it('shows the empty state, checks the form, creates from text and shows the embed code', async () => {
    let projects: AudioNativeProject[] = [];
    const calls = stubWorkspaceApi({
      'GET /v1/audio-native': () => json({ projects }),
      'POST /v1/audio-native': () => {
        projects = [project()];
        return json({ project_id: 'p1', converting: true, html_snippet: SNIPPET });
      },
    });
    renderApp('/app/audio-native');
    expect(await screen.findByText('No players yet', {}, { timeout: 5000 })).toBeTruthy();
    const form = screen.getByRole('form', { name: 'New Audio Native player' });
    fireEvent.click(within(form).getByRole('button', { name: 'Create and convert' }));
    expect(within(form).getByText('Give the article a name.')).toBeTruthy();
    expect(within(form).getByText('Paste the article’s text.')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/audio-native')).toHaveLength(0);
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Tides' } });
    fireEvent.change(within(form).getByLabelText('Article text'), { target: { value: 'The moon pulls.' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create and convert' }));
    expect(await within(form).findByText(/Created\. Paste this/)).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/audio-native')).toHaveLength(1);
    // The list refreshes with the new player, its snippet and its pages.
    expect(await screen.findByRole('heading', { name: 'Tides' })).toBeTruthy();
    expect(screen.getAllByText(/data-project-id="p1"/).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Analytics' }).getAttribute('href')).toBe(
      '/app/audio-native/p1/analytics',
    );
  });
});

describe('/app/audio-native/{id}/settings', () => {
  it('refuses a bad colour and origin, then saves the settings with the allowed sites', async () => {
    const calls = stubWorkspaceApi({
      'GET /v1/audio-native/p1': () => json(project()),
      'PATCH /v1/audio-native/p1/settings': ({ body }) =>
        json(project({ allowed_origins: (body as { allowed_origins: string[] }).allowed_origins })),
    });
    renderApp('/app/audio-native/p1/settings');
    const form = await screen.findByRole('form', { name: 'Player settings' }, { timeout: 5000 });
    expect(screen.getByRole('region', { name: 'Player preview' })).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Text colour'), { target: { value: 'red' } });
    fireEvent.change(within(form).getByLabelText('Allowed sites'), {
      target: { value: 'https://blog.example\nblog.example/path' },
    });
    expect(within(form).getByText('A colour is #rgb or #rrggbb.')).toBeTruthy();
    expect(within(form).getByText('Not an origin: blog.example/path')).toBeTruthy();
    expect((within(form).getByRole('button', { name: 'Save settings' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.change(within(form).getByLabelText('Text colour'), { target: { value: '#123456' } });
    fireEvent.change(within(form).getByLabelText('Allowed sites'), {
      target: { value: 'https://blog.example\nhttp://127.0.0.1:8080' },
    });
    fireEvent.click(within(form).getByRole('switch', { name: 'Small player' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved')).toBeTruthy();
    expect(callsTo(calls, 'PATCH /v1/audio-native/p1/settings')[0]?.body).toMatchObject({
      text_color: '#123456',
      small: true,
      sessionization: 30,
      allowed_origins: ['https://blog.example', 'http://127.0.0.1:8080'],
    });
  });

  it('reads origins one per line', () => {
    expect(parseOrigins(' https://a.example/ \n\nhttp://b.example:81 ftp://c x')).toEqual({
      origins: ['https://a.example', 'http://b.example:81'],
      wrong: ['ftp://c', 'x'],
    });
  });
});

describe('/app/audio-native/{id}/analytics', () => {
  it('shows the totals, the chart and a row per day', async () => {
    const analytics: AudioNativeAnalytics = {
      project_id: 'p1',
      duration_secs: 12,
      days: [
        { date: '2026-11-28', loads: 4, plays: 2, listeners: 2, listened_secs: 18, listen_through: 0.75 },
        { date: '2026-11-29', loads: 1, plays: 1, listeners: 1, listened_secs: 12, listen_through: 1 },
      ],
      totals: { loads: 5, plays: 3, listeners: 3, listened_secs: 30, listen_through: 0.833 },
    };
    const calls = stubWorkspaceApi({ 'GET /v1/audio-native/p1/analytics': () => json(analytics) });
    renderApp('/app/audio-native/p1/analytics');
    expect(await screen.findByRole('img', { name: /3 plays over 2 days/ }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('83%')).toBeTruthy();
    expect(screen.getByRole('row', { name: /2026-11-28 4 2 2 18 s 75%/ })).toBeTruthy();
    expect(callsTo(calls, 'GET /v1/audio-native/p1/analytics')[0]?.query.get('days')).toBe('30');
    fireEvent.click(screen.getByRole('radio', { name: '7 days' }));
    await screen.findByRole('img', { name: /3 plays/ });
    expect(callsTo(calls, 'GET /v1/audio-native/p1/analytics').at(-1)?.query.get('days')).toBe('7');
  });

  it('adds every player’s listening up on the workspace’s analytics page, with each player’s share', async () => {
    const day = (date: string, plays: number) => ({
      date,
      loads: plays,
      plays,
      listeners: plays,
      listened_secs: plays * 6,
      listen_through: 0.5,
    });
    const of = (id: string, days: ReturnType<typeof day>[]): AudioNativeAnalytics => ({
      project_id: id,
      duration_secs: 12,
      days,
      totals: {
        loads: 0,
        plays: days.reduce((n, d) => n + d.plays, 0),
        listeners: 0,
        listened_secs: 0,
        listen_through: 0.5,
      },
    });
    const calls = stubWorkspaceApi({
      'GET /v1/audio-native': () =>
        json({ projects: [project(), project({ project_id: 'p2', name: 'Currents' })] }),
      'GET /v1/audio-native/p1/analytics': () => json(of('p1', [day('2026-11-28', 2)])),
      'GET /v1/audio-native/p2/analytics': () => json(of('p2', [day('2026-11-28', 3), day('2026-11-29', 1)])),
    });
    renderApp('/app/audio-native/analytics');
    expect(await screen.findByRole('img', { name: /6 plays over 2 days/ }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('row', { name: /2026-11-28 5 5 5 30 s 50%/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Currents' }).getAttribute('href')).toBe(
      '/app/audio-native/p2/analytics',
    );
    expect(screen.getByRole('row', { name: /Currents 0 4 0 50%/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: '7 days' }));
    await screen.findByRole('img', { name: /6 plays/ });
    expect(callsTo(calls, 'GET /v1/audio-native/p2/analytics').at(-1)?.query.get('days')).toBe('7');
  });

  it('leads the id-less settings pages to the players’ own settings', async () => {
    stubWorkspaceApi({
      'GET /v1/audio-native': () =>
        json({ projects: [project(), project({ project_id: 'p2', name: 'Currents', enabled: false })] }),
    });
    renderApp('/app/audio-native/settings/player');
    const players = await screen.findByRole('list', { name: 'Players' }, { timeout: 5000 });
    expect(screen.getByRole('heading', { name: 'Player appearance', level: 1 })).toBeTruthy();
    const link = within(players).getByRole('link', { name: /Currents\s*Disabled/ });
    expect(link.getAttribute('href')).toBe('/app/audio-native/p2/settings');
  });

  it('opens the one player’s settings straight from /app/audio-native/settings', async () => {
    stubWorkspaceApi({
      'GET /v1/audio-native': () => json({ projects: [project()] }),
      'GET /v1/audio-native/p1': () => json(project()),
    });
    renderApp('/app/audio-native/settings');
    expect(await screen.findByRole('form', { name: 'Player settings' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Players' })).toBeNull();
  });
});
