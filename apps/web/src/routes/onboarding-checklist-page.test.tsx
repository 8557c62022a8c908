import type { OnboardingChecklistResponse } from '@parla/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { makeChecklist } from '../test/onboarding-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';

const PATH = '/app/onboarding-checklist';

/** The API with a checklist that the calls change as the server would. */
function stubApi(initial: OnboardingChecklistResponse | (() => Response)) {
  setAccessToken('t1');
  let state = typeof initial === 'function' ? makeChecklist() : initial;
  const posts: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      if (key.startsWith('POST ')) posts.push(key);
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/user/onboarding-checklist')
        return typeof initial === 'function' ? initial() : json(state);
      if (key === 'POST /v1/user/onboarding-checklist/initiate') {
        state = makeChecklist();
        return json(state);
      }
      if (key === 'POST /v1/user/onboarding-checklist/hide' && state.checklist) {
        state = { ...state, checklist: { ...state.checklist, hidden: true } };
        return json(state);
      }
      if (key === 'POST /v1/user/onboarding-checklist/mark-complete') {
        state = { ...state, is_onboarding_checklist_completed: true };
        return json(state);
      }
      if (key === 'POST /v1/user/onboarding-checklist/acknowledge')
        return json({ ...state, acknowledged: [] });
      return apiError(404, 'not_found');
    }),
  );
  return posts;
}

const itemOf = (list: HTMLElement, title: string) =>
  within(list)
    .getAllByRole('listitem')
    .find((item) => item.textContent?.includes(title)) as HTMLElement;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
});

describe('/app/onboarding-checklist', () => {
  it('lists every step whose product is built, with its state and a link to its page', async () => {
    stubApi(
      makeChecklist({
        done: ['generate_text_to_speech', 'design_voice'],
        acknowledged: ['generate_text_to_speech', 'design_voice'],
      }),
    );
    renderApp(PATH);
    const list = await screen.findByRole('list', { name: 'Onboarding checklist' }, { timeout: 5000 });
    // Every product of the checklist is built since dubbing (issue 29): all seven steps show.
    expect(within(list).getAllByRole('listitem')).toHaveLength(7);
    expect(
      screen
        .getByRole('progressbar', { name: 'Onboarding checklist progress' })
        .getAttribute('aria-valuenow'),
    ).toBe('2');
    expect(screen.getByText('2 of 7 done')).toBeTruthy();
    expect(within(list).getByRole('link', { name: 'Open dubbing' }).getAttribute('href')).toBe(
      '/app/dubbing',
    );
    expect(screen.queryByText(/not built/i)).toBeNull();

    expect(within(itemOf(list, 'Generate text to speech')).getByText('Done')).toBeTruthy();
    const sts = itemOf(list, 'Convert speech to speech');
    expect(within(sts).getByText('To do')).toBeTruthy();
    expect(within(sts).getByRole('link', { name: 'Open speech to speech' }).getAttribute('href')).toBe(
      '/app/speech-synthesis/speech-to-speech',
    );
    expect(within(itemOf(list, 'Add a voice from the library')).getByRole('link').getAttribute('href')).toBe(
      '/app/voice-library',
    );
    expect(within(itemOf(list, 'Join the affiliate programme')).getByRole('link').getAttribute('href')).toBe(
      '/app/affiliates',
    );
    const key = itemOf(list, 'Create an API key');
    expect(within(key).getByRole('link', { name: 'Read the API reference' }).getAttribute('href')).toBe(
      '/docs',
    );
    expect(within(key).getByRole('link', { name: 'Create a key' }).getAttribute('href')).toBe(
      '/app/developers/api-keys',
    );
  });

  it('counts every shown step done as all done', async () => {
    const shownIds = [
      'generate_text_to_speech',
      'generate_speech_to_speech',
      'add_voice_to_voice_lab',
      'design_voice',
      'create_dub',
      'join_affiliate',
      'generate_api_key',
    ] as const;
    stubApi(makeChecklist({ done: [...shownIds], acknowledged: [...shownIds] }));
    renderApp(PATH);
    expect(await screen.findByText('7 of 7 done', {}, { timeout: 5000 })).toBeTruthy();
    // All done: marking it complete is the page's main action.
    expect(screen.getByRole('button', { name: 'Mark as complete' }).className).toMatch(/\bbg-fg\b/);
  });

  it('hides the checklist and marks it complete', async () => {
    const posts = stubApi(makeChecklist());
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Hide' }, { timeout: 5000 }));
    expect(await screen.findByText(/The checklist is hidden from the home page/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Hide' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Mark as complete' }));
    expect(await screen.findByText('You have marked the checklist complete.')).toBeTruthy();
    expect(posts).toEqual([
      'POST /v1/user/onboarding-checklist/hide',
      'POST /v1/user/onboarding-checklist/mark-complete',
    ]);
  });

  it('offers to start a checklist that has not been started', async () => {
    const posts = stubApi(makeChecklist({ started: false }));
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Start the checklist' }, { timeout: 5000 }));
    expect(await screen.findByRole('list', { name: 'Onboarding checklist' })).toBeTruthy();
    expect(posts).toContain('POST /v1/user/onboarding-checklist/initiate');
  });

  it('says when the checklist cannot be loaded, and tries again', async () => {
    let fail = true;
    stubApi(() => (fail ? apiError(500, 'internal_error', 'Something broke.') : json(makeChecklist())));
    renderApp(PATH);
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 10_000 });
    fail = false;
    fireEvent.click(retry);
    await waitFor(() => expect(screen.getByRole('list', { name: 'Onboarding checklist' })).toBeTruthy());
  }, 20_000);
});
