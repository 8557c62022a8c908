import { checklistStepMessage, type OnboardingChecklistItemId } from '@parla/contracts';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../../lib/access-token';
import { toastStore } from '../../../lib/toasts/toast-store';
import { apiError, json } from '../../../test/billing-fixture';
import { makeChecklist } from '../../../test/onboarding-fixture';
import { renderApp } from '../../../test/render-app';
import { makeUser } from '../../../test/user-fixture';
import { checklistPollMs } from './checklist-step-notifier';

/** A server where the API-key step completed and nobody has been congratulated on it yet. */
function stubApi() {
  setAccessToken('t1');
  const done: OnboardingChecklistItemId[] = ['generate_api_key'];
  let acknowledged: OnboardingChecklistItemId[] = [];
  let hidden = false;
  const calls = { acknowledge: 0, fetches: 0 };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/health') return apiError(404, 'not_found');
      if (key === 'GET /v1/user/onboarding-checklist') {
        calls.fetches += 1;
        return json(makeChecklist({ done, acknowledged, hidden }));
      }
      if (key === 'POST /v1/user/onboarding-checklist/acknowledge') {
        calls.acknowledge += 1;
        const fresh = done.filter((id) => !acknowledged.includes(id));
        acknowledged = [...done];
        return json({ ...makeChecklist({ done, acknowledged, hidden }), acknowledged: fresh });
      }
      if (key === 'POST /v1/user/onboarding-checklist/hide') {
        hidden = true;
        return json(makeChecklist({ done, acknowledged, hidden }));
      }
      return apiError(404, 'not_found');
    }),
  );
  return calls;
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  setAccessToken(null);
});

describe('the checklist step congratulation (accounts §8 "Checklist step")', () => {
  it('shows once for a newly completed step, and the home page widget lists the next steps with Hide', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const toast = vi.spyOn(toastStore, 'toast');
    const calls = stubApi();
    renderApp('/app/home');
    expect(await screen.findByText(checklistStepMessage, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('Create an API key')).toBeTruthy();

    const widget = await screen.findByRole('region', { name: 'Get started with Parla' });
    // Only the steps of built products count ("Create a dub" waits for dubbing).
    expect(widget.textContent).toContain('1 of 7 done');
    expect(widget.textContent).toContain('Generate text to speech');

    // Later looks at the checklist find nothing new to congratulate on.
    await act(() => vi.advanceTimersByTimeAsync(checklistPollMs * 2 + 1000));
    await waitFor(() => expect(calls.fetches).toBeGreaterThan(2));
    const congratulations = toast.mock.calls.filter(([input]) => input.title === checklistStepMessage);
    expect(congratulations).toHaveLength(1);
    expect(calls.acknowledge).toBe(1);

    fireEvent.click(await screen.findByRole('button', { name: 'Hide' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Get started with Parla' })).toBeNull());
  });
});
