import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserTimeZone } from '../features/onboarding/survey-rules';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { makeChecklist } from '../test/onboarding-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';

interface Sent {
  key: string;
  body: unknown;
}

function stubApi({ survey = () => json({ status: 'ok' }) }: { survey?: () => Response } = {}) {
  setAccessToken('t1');
  const sent: Sent[] = [];
  let onboarded = false;
  let started = false;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      if (key.startsWith('POST ')) {
        sent.push({ key, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      }
      if (key === 'GET /v1/user')
        return json(makeUser({ first_name: onboarded ? 'Ada' : null, is_onboarding_completed: onboarded }));
      if (key === 'POST /v1/user/onboarding-survey-complete') {
        const answer = survey();
        onboarded = answer.ok;
        return answer;
      }
      if (key === 'POST /v1/user/onboarding-checklist/initiate') {
        started = true;
        return json(makeChecklist());
      }
      if (key === 'GET /v1/user/onboarding-checklist') return json(makeChecklist({ started }));
      if (key === 'POST /v1/user/onboarding-checklist/acknowledge')
        return json({ ...makeChecklist({ started }), acknowledged: [] });
      return apiError(404, 'not_found');
    }),
  );
  return sent;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
});

describe('/app/onboarding', () => {
  it('a signed-in user who has not taken the survey goes there from the sign-in page', async () => {
    stubApi();
    const router = renderApp('/app/sign-in?redirect=%2Fapp%2Fusage');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/onboarding'), { timeout: 5000 });
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/app/usage');
    expect(await screen.findByRole('heading', { name: 'Welcome to Parla' }, { timeout: 5000 })).toBeTruthy();
  });

  it('checks the answers, sends the survey, starts the checklist and shows the next step', async () => {
    const sent = stubApi();
    const router = renderApp('/app/onboarding?redirect=%2Fapp%2Fusage');
    const name = await screen.findByLabelText('First name', {}, { timeout: 5000 });
    const zone = screen.getByLabelText('Time zone') as HTMLSelectElement;
    expect(zone.value).toBe(browserTimeZone());

    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Enter your first name.')).toBeTruthy();
    expect(screen.getByText('Choose what describes you best.')).toBeTruthy();
    expect(sent).toHaveLength(0);

    fireEvent.change(name, { target: { value: 'Ada' } });
    const roles = screen.getByRole('group', { name: 'What describes you best?' });
    fireEvent.click(within(roles).getByRole('radio', { name: 'Developer' }));
    fireEvent.change(screen.getByLabelText('Which of these fits? (optional)'), {
      target: { value: 'game_developer' },
    });
    fireEvent.change(zone, { target: { value: 'Europe/Berlin' } });
    fireEvent.change(screen.getByLabelText('How did you hear about us? (optional)'), {
      target: { value: 'podcast' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(
      await screen.findByRole('heading', { name: 'You’re all set, Ada' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(sent.map((call) => call.key)).toEqual([
      'POST /v1/user/onboarding-survey-complete',
      'POST /v1/user/onboarding-checklist/initiate',
    ]);
    expect(sent[0]?.body).toEqual({
      first_name: 'Ada',
      role: 'developer',
      subrole: 'game_developer',
      timezone: 'Europe/Berlin',
      source: 'podcast',
    });
    expect(router.state.location.pathname).toBe('/app/onboarding/next');
    const list = await screen.findByRole('list', { name: 'Onboarding checklist' });
    // The seven steps of accounts §4, "Create a dub" among them now that dubbing is built.
    expect(within(list).getAllByRole('listitem')).toHaveLength(7);
    expect(within(list).getAllByText(/dub/i).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/app/usage');
  });

  it('shows the server’s refusal and stays on the form', async () => {
    stubApi({ survey: () => apiError(422, 'invalid_request', 'Choose a time zone from the list.') });
    const router = renderApp('/app/onboarding');
    fireEvent.change(await screen.findByLabelText('First name', {}, { timeout: 5000 }), {
      target: { value: 'Ada' },
    });
    fireEvent.click(screen.getByRole('radio', { name: 'Something else' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Choose a time zone from the list.');
    expect(router.state.location.pathname).toBe('/app/onboarding');
    expect(screen.queryByLabelText('Which of these fits? (optional)')).toBeNull();
  });
});
