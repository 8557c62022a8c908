import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../lib/access-token';
import { renderApp } from '../../test/render-app';
import { makeUser } from '../../test/user-fixture';

type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Stubs fetch with a handler per "METHOD path"; anything else is a 404. */
function stubApi(handlers: Record<string, Handler>) {
  const calls: { key: string; url: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
      calls.push({ key, url });
      const handler = handlers[key];
      return handler ? handler(init) : json({ detail: { status: 'not_found', message: 'x' } }, 404);
    }),
  );
  return calls;
}
const signedIn = () => {
  setAccessToken('t1');
  return { 'GET /v1/user': () => json(makeUser()) } satisfies Record<string, Handler>;
};
const signedOut = { 'GET /v1/user': () => json({ detail: { status: 'unauthorized', message: 'x' } }, 401) };
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
const trainingSetting = {
  training_opt_out: { training_opt_out: false, timestamp_unix: null },
  can_change: true,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
  localStorage.clear();
});

describe('the app shell query parameters (accounts §2)', () => {
  it('newUser=false with internalCode, signed in: verifies the code, then goes to the root', async () => {
    const calls = stubApi({
      ...signedIn(),
      'POST /v1/user/verify-sensitive-action-code': () => json({ status: 'ok' }),
    });
    const router = renderApp('/app/settings?internalCode=ic1&newUser=false');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 5000 });
    expect(calls.filter((c) => c.key === 'POST /v1/user/verify-sensitive-action-code')).toHaveLength(1);
  });

  it('does not verify the code for a new user, nor before sign-in', async () => {
    const newUser = stubApi({ ...signedIn() });
    renderApp('/app/settings?internalCode=ic1&newUser=true');
    await waitFor(() => expect(newUser.some((c) => c.key === 'GET /v1/user')).toBe(true));
    await settle();
    expect(newUser.some((c) => c.key.includes('verify-sensitive-action-code'))).toBe(false);
    cleanup();
    setAccessToken(null);

    const anonymous = stubApi(signedOut);
    renderApp('/?internalCode=ic1&newUser=false');
    await settle();
    expect(anonymous.some((c) => c.key.includes('verify-sensitive-action-code'))).toBe(false);
  });

  it('isReverting=true runs the email revert without waiting for sign-in', async () => {
    const calls = stubApi({
      ...signedOut,
      'PUT /v1/user/email': () => json({ status: 'ok', email: 'old@example.test' }),
      'POST /v1/auth/sign-out': () => json({ status: 'ok' }),
    });
    renderApp('/?internalCode=rev1&isReverting=true');
    expect(
      await screen.findByText('Your email is old@example.test again.', {}, { timeout: 5000 }),
    ).toBeTruthy();
    const put = calls.find((c) => c.key === 'PUT /v1/user/email');
    expect(put?.url).toContain('verification_code=rev1');
    expect(put?.url).toContain('is_reverting=true');
  });

  it('training_opt_out=true opens the data-training dialog once the workspace data arrives', async () => {
    let release: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => {
      release = resolve;
    });
    const calls = stubApi({
      ...signedIn(),
      'GET /v1/workspace/training-opt-out': async () => {
        await arrived;
        return json(trainingSetting);
      },
    });
    const router = renderApp('/app/settings?training_opt_out=true');
    // The flag is kept and the parameter leaves the address bar.
    await waitFor(() => expect(router.state.location.search).toBe(''), { timeout: 5000 });
    await waitFor(() => expect(calls.some((c) => c.key === 'GET /v1/workspace/training-opt-out')).toBe(true));
    expect(screen.queryByRole('dialog', { name: 'Data training' })).toBeNull();
    release();
    const dialog = await screen.findByRole('dialog', { name: 'Data training' });
    expect(within(dialog).getByRole('switch', { name: /Opt out of data training/ })).toBeTruthy();
  });

  it('training_opt_out=true waits for a sign-in: nothing opens for a signed-out visitor', async () => {
    const calls = stubApi({
      ...signedOut,
      'GET /v1/workspace/training-opt-out': () => json(trainingSetting),
    });
    renderApp('/?training_opt_out=true');
    await settle();
    expect(calls.some((c) => c.key === 'GET /v1/workspace/training-opt-out')).toBe(false);
    expect(screen.queryByRole('dialog', { name: 'Data training' })).toBeNull();
  });

  it('ignores training_opt_out other than true', async () => {
    const calls = stubApi({
      ...signedIn(),
      'GET /v1/workspace/training-opt-out': () => json(trainingSetting),
    });
    renderApp('/?training_opt_out=false');
    await waitFor(() => expect(calls.some((c) => c.key === 'GET /v1/user')).toBe(true));
    await settle();
    expect(screen.queryByRole('dialog', { name: 'Data training' })).toBeNull();
  });
});
