import { bipaTerms, type ConsentStateResponse, trainingOptOutMessages } from '@parla/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../../lib/access-token';
import { stubResizeObserver } from '../../../test/dom-stubs';
import { renderApp } from '../../../test/render-app';
import { makeUser } from '../../../test/user-fixture';
import { ccpaOptOutCookie } from '../ccpa-opt-out';
import { analyticsConsentCopy } from './analytics-consent-banner';

type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Stubs fetch with a handler per "METHOD path"; anything else is a 404. Signed in as a fresh user. */
function stubApi(handlers: Record<string, Handler>) {
  setAccessToken('t1');
  const calls: { key: string; body: unknown }[] = [];
  const all: Record<string, Handler> = { 'GET /v1/user': () => json(makeUser()), ...handlers };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
      calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const handler = all[key];
      return handler ? handler(init) : json({ detail: { status: 'not_found', message: 'x' } }, 404);
    }),
  );
  return calls;
}

function makeConsent(overrides: Partial<ConsentStateResponse> = {}): ConsentStateResponse {
  return {
    analytics: { state: 'not_applicable', analytics_storage: 'granted', ad_storage: 'granted' },
    ccpa: { applies: false, opt_out: false },
    bipa: { applies: false, accepted: false, accepted_at_unix: null, effective_date: '2024-05-31' },
    geo_location: { country: 'us', region: 'wa', city: 'Redmond' },
    ...overrides,
  };
}
const undecided = { state: 'undecided', analytics_storage: 'denied', ad_storage: 'denied' } as const;

const banner = () => screen.findByRole('region', { name: analyticsConsentCopy.label }, { timeout: 5000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
  localStorage.clear();
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API; the app writes this cookie the same way.
  document.cookie = `${ccpaOptOutCookie}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  Reflect.deleteProperty(navigator, 'globalPrivacyControl');
});

describe('the analytics consent banner (accounts §4)', () => {
  it.each([
    ['Accept', 'granted'],
    ['Decline', 'denied'],
  ] as const)(
    'shows for an undecided user; %s records the choice and the banner goes',
    async (button, choice) => {
      const calls = stubApi({
        'GET /v1/user/consent': () => json(makeConsent({ analytics: undecided })),
        'POST /v1/user/consent': () =>
          json(makeConsent({ analytics: { state: choice, analytics_storage: choice, ad_storage: choice } })),
      });
      renderApp('/');
      const region = await banner();
      expect(within(region).getByText(analyticsConsentCopy.text)).toBeTruthy();
      fireEvent.click(within(region).getByRole('button', { name: button }));
      await waitFor(() =>
        expect(screen.queryByRole('region', { name: analyticsConsentCopy.label })).toBeNull(),
      );
      expect(calls.find((c) => c.key === 'POST /v1/user/consent')?.body).toEqual({
        analytics_consent: choice,
      });
    },
  );

  it.each(['not_applicable', 'granted', 'denied'] as const)(
    'does not show when the state is %s',
    async (state) => {
      const calls = stubApi({
        'GET /v1/user/consent': () =>
          json(
            makeConsent({
              analytics: {
                state,
                analytics_storage: state === 'denied' ? 'denied' : 'granted',
                ad_storage: state === 'denied' ? 'denied' : 'granted',
              },
            }),
          ),
      });
      renderApp('/');
      await waitFor(() => expect(calls.some((c) => c.key === 'GET /v1/user/consent')).toBe(true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(screen.queryByRole('region', { name: analyticsConsentCopy.label })).toBeNull();
    },
  );

  it('shows nothing to a signed-out visitor', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ detail: { status: 'unauthorized', message: 'x' } }, 401)),
    );
    renderApp('/');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole('region', { name: analyticsConsentCopy.label })).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('the biometric terms dialog (accounts §4)', () => {
  it('blocks an Illinois user until the terms are accepted', async () => {
    let accepted = false;
    const calls = stubApi({
      'GET /v1/user/consent': () =>
        json(
          makeConsent({
            bipa: { applies: true, accepted, accepted_at_unix: null, effective_date: '2024-05-31' },
            geo_location: { country: 'us', region: 'il', city: 'Chicago' },
          }),
        ),
      'POST /v1/user/accept-bipa-terms': () => {
        accepted = true;
        return json({ status: 'ok' });
      },
    });
    renderApp('/');
    const dialog = await screen.findByRole('dialog', { name: bipaTerms.title }, { timeout: 5000 });
    expect(within(dialog).getByText(/effective May 31, 2024/)).toBeTruthy();
    // It cannot be dismissed.
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: bipaTerms.title })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: bipaTerms.accept }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: bipaTerms.title })).toBeNull());
    expect(calls.some((c) => c.key === 'POST /v1/user/accept-bipa-terms')).toBe(true);
  });

  it('does not ask anyone else, nor one who accepted', async () => {
    for (const bipa of [
      { applies: false, accepted: false },
      { applies: true, accepted: true },
    ]) {
      const calls = stubApi({
        'GET /v1/user/consent': () =>
          json(makeConsent({ bipa: { ...bipa, accepted_at_unix: null, effective_date: '2024-05-31' } })),
      });
      renderApp('/');
      await waitFor(() => expect(calls.some((c) => c.key === 'GET /v1/user/consent')).toBe(true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(screen.queryByRole('dialog', { name: bipaTerms.title })).toBeNull();
      cleanup();
    }
  });
});

describe('the CCPA opt-out (accounts §4, §9)', () => {
  const ccpaCalls = (calls: { key: string; body: unknown }[]) =>
    calls.filter((c) => c.key === 'POST /v1/user/consent');

  it('sends optOutCCPA: true when the browser asks for Global Privacy Control, once', async () => {
    Object.defineProperty(navigator, 'globalPrivacyControl', { value: true, configurable: true });
    const calls = stubApi({
      'GET /v1/user/consent': () => json(makeConsent({ ccpa: { applies: true, opt_out: false } })),
      'POST /v1/user/consent': () => json(makeConsent({ ccpa: { applies: true, opt_out: true } })),
    });
    renderApp('/');
    await waitFor(() => expect(ccpaCalls(calls)).toHaveLength(1));
    expect(ccpaCalls(calls)[0]?.body).toEqual({ optOutCCPA: true });
    await waitFor(() => expect(document.cookie).toContain(`${ccpaOptOutCookie}=1`));
    cleanup();

    // Resolved: the next page load sends nothing.
    const again = stubApi({
      'GET /v1/user/consent': () => json(makeConsent({ ccpa: { applies: true, opt_out: true } })),
    });
    renderApp('/');
    await waitFor(() => expect(again.some((c) => c.key === 'GET /v1/user/consent')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ccpaCalls(again)).toHaveLength(0);
  });

  it('sends it for the stored flag too', async () => {
    const calls = stubApi({
      'GET /v1/user/consent': () => json(makeConsent({ ccpa: { applies: true, opt_out: true } })),
      'POST /v1/user/consent': () => json(makeConsent({ ccpa: { applies: true, opt_out: true } })),
    });
    renderApp('/');
    await waitFor(() => expect(ccpaCalls(calls)).toHaveLength(1));
  });

  it('sends nothing outside the listed states, or without a trigger', async () => {
    Object.defineProperty(navigator, 'globalPrivacyControl', { value: true, configurable: true });
    const outside = stubApi({
      'GET /v1/user/consent': () => json(makeConsent({ ccpa: { applies: false, opt_out: false } })),
    });
    renderApp('/');
    await waitFor(() => expect(outside.some((c) => c.key === 'GET /v1/user/consent')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ccpaCalls(outside)).toHaveLength(0);
    cleanup();

    Reflect.deleteProperty(navigator, 'globalPrivacyControl');
    const untriggered = stubApi({
      'GET /v1/user/consent': () => json(makeConsent({ ccpa: { applies: true, opt_out: false } })),
    });
    renderApp('/');
    await waitFor(() => expect(untriggered.some((c) => c.key === 'GET /v1/user/consent')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ccpaCalls(untriggered)).toHaveLength(0);
  });
});

describe('the workspace data-training opt-out on the settings page (accounts §5, §8)', () => {
  const setting = (value: boolean, canChange = true) => ({
    training_opt_out: { training_opt_out: value, timestamp_unix: null },
    can_change: canChange,
  });

  async function openDialog() {
    fireEvent.click(await screen.findByRole('button', { name: 'Change' }, { timeout: 5000 }));
    return screen.findByRole('dialog', { name: 'Data training' });
  }

  it('saves a confirmed change and says so', async () => {
    const calls = stubApi({
      'GET /v1/user/consent': () => json(makeConsent()),
      'GET /v1/workspace/training-opt-out': () => json(setting(false)),
      'POST /v1/workspace/update-workspace': () => json(setting(true)),
    });
    renderApp('/app/settings');
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('switch', { name: /Opt out of data training/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(trainingOptOutMessages.updated)).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /v1/workspace/update-workspace')?.body).toEqual({
      training_opt_out: true,
    });
    expect(await screen.findByText('Opted out')).toBeTruthy();
  });

  it('says when the change fails', async () => {
    stubApi({
      'GET /v1/user/consent': () => json(makeConsent()),
      'GET /v1/workspace/training-opt-out': () => json(setting(true)),
      'POST /v1/workspace/update-workspace': () =>
        json({ detail: { status: 'forbidden', message: trainingOptOutMessages.adminsOnly } }, 403),
    });
    renderApp('/app/settings');
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('switch', { name: /Opt out of data training/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(trainingOptOutMessages.updateFailed)).toBeTruthy();
  });

  it('cancel changes nothing', async () => {
    const calls = stubApi({
      'GET /v1/user/consent': () => json(makeConsent()),
      'GET /v1/workspace/training-opt-out': () => json(setting(false)),
    });
    renderApp('/app/settings');
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('switch', { name: /Opt out of data training/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Data training' })).toBeNull());
    expect(calls.some((c) => c.key === 'POST /v1/workspace/update-workspace')).toBe(false);
  });

  it('shows a member the setting without letting them change it', async () => {
    stubResizeObserver();
    stubApi({
      'GET /v1/user/consent': () => json(makeConsent()),
      'GET /v1/workspace/training-opt-out': () => json(setting(false, false)),
    });
    renderApp('/app/settings');
    fireEvent.click(await screen.findByRole('button', { name: 'View' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Data training' });
    const toggle = within(dialog).getByRole('switch', {
      name: /Opt out of data training/,
    }) as HTMLInputElement;
    expect(toggle.disabled).toBe(true);
    expect((within(dialog).getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });
});
