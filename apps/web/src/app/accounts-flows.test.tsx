import { emailActionMessages, supportAccessMessages } from '@parla/contracts';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cachedUserCookieName, readCachedUser } from '../features/users/cached-user';
import { setAccessToken } from '../lib/access-token';
import { describeTimeout } from '../lib/auth/session-upkeep';
import { expireCookie } from '../lib/cookies';
import { createQueryClient } from '../lib/query-client';
import { makeUser } from '../test/user-fixture';
import { Providers } from './providers';
import { createAppRoutes } from './router';

type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const error = (status: number, code: string, message = 'x') =>
  json({ detail: { status: code, message } }, status);

/** Stubs fetch with a handler per "METHOD path" (query left out); anything else is a 404. */
function stubApi(handlers: Record<string, Handler>) {
  const calls: { key: string; url: string; init: RequestInit | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
      calls.push({ key, url, init });
      const handler = handlers[key];
      return handler ? handler(init) : error(404, 'not_found');
    }),
  );
  return calls;
}

function renderApp(path: string) {
  const router = createMemoryRouter(createAppRoutes(), { initialEntries: [path] });
  render(<Providers router={router} queryClient={createQueryClient()} />);
  return router;
}

const dialog = (name: string) => screen.findByRole('dialog', { name }, { timeout: 5000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
  localStorage.clear();
  expireCookie(cachedUserCookieName);
});

describe('the account-action landing page (accounts §2, §4)', () => {
  it('asks before granting support access, then thanks and goes to the root', async () => {
    const calls = stubApi({ 'POST /v1/user/sign-in-requests/verify': () => json({ status: 'ok' }) });
    const router = renderApp('/auth/action?mode=verifySignInRequest&oobCode=c1');
    const confirm = await dialog(supportAccessMessages.title);
    expect(within(confirm).getByText(supportAccessMessages.text)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Grant Access' }));
    expect(await screen.findByText(supportAccessMessages.granted)).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const call = calls.find((c) => c.key === 'POST /v1/user/sign-in-requests/verify');
    expect(JSON.parse(String(call?.init?.body))).toEqual({ sign_in_request_verification_code: 'c1' });
  });

  it('goes to the root when support access is cancelled, without calling', async () => {
    const calls = stubApi({});
    const router = renderApp('/auth/action?mode=verifySignInRequest&oobCode=c1');
    fireEvent.click(
      within(await dialog(supportAccessMessages.title)).getByRole('button', { name: 'Cancel' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls.some((c) => c.key.includes('sign-in-requests'))).toBe(false);
  });

  it('ends in needsVerifyEmail and continues to continueUrl with internalCode and newUser appended', async () => {
    stubApi({ 'POST /v1/auth/action/verify-email': () => json({ status: 'ok', email: 'ada@example.test' }) });
    const router = renderApp(
      '/auth/action?mode=verifyEmail&oobCode=c2&continueUrl=%2Fapp%2Fsign-in&internalCode=ic&newUser=true',
    );
    const verified = await dialog('Email Verification');
    expect(
      within(verified).getByText('Your email ada@example.test has been verified. You can now sign in.'),
    ).toBeTruthy();
    fireEvent.click(within(verified).getByRole('button', { name: 'Continue to sign in' }));
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        '/app/sign-in?internalCode=ic&newUser=true',
      ),
    );
  });

  it('shows "Email Verification" with the reason when the code is refused', async () => {
    stubApi({ 'POST /v1/auth/action/verify-email': () => error(400, 'invalid_action_code') });
    renderApp('/auth/action?mode=verifyEmail&oobCode=used');
    const shown = await dialog('Email Verification');
    expect(within(shown).getByText(emailActionMessages.invalidActionCode)).toBeTruthy();
  });

  it.each([
    [429, 'rate_limited', emailActionMessages.tooManyAttempts],
    [400, 'invalid_action_code', emailActionMessages.invalidActionCode],
    [500, 'internal_error', emailActionMessages.unknownError],
  ])(
    'resetPassword: a code check answering %i shows "An error occurred" with its message',
    async (status, code, message) => {
      stubApi({ 'POST /v1/auth/action/check-password-reset-code': () => error(status, code) });
      renderApp('/auth/action?mode=resetPassword&oobCode=c3');
      expect(within(await dialog('An error occurred')).getByText(message)).toBeTruthy();
    },
  );

  it('resetPassword: checks the code first, then takes the two fields and reports the change', async () => {
    const calls = stubApi({
      'POST /v1/auth/action/check-password-reset-code': () => json({ email: 'ada@example.test' }),
      'POST /v1/auth/action/reset-password': () => json({ status: 'ok' }),
    });
    renderApp('/auth/action?mode=resetPassword&oobCode=c4');
    const form = await dialog('Please enter your new Password');
    fireEvent.change(within(form).getByLabelText('Your new password'), { target: { value: 'new-pass-1!' } });
    fireEvent.change(within(form).getByLabelText('Repeat new password'), {
      target: { value: 'new-pass-2!' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(within(form).getAllByText('Your passwords do not match').length).toBeGreaterThan(0);
    expect(calls.some((c) => c.key === 'POST /v1/auth/action/reset-password')).toBe(false);
    fireEvent.change(within(form).getByLabelText('Repeat new password'), {
      target: { value: 'new-pass-1!' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await dialog('Password has been changed')).toBeTruthy();
    const call = calls.find((c) => c.key === 'POST /v1/auth/action/reset-password');
    expect(JSON.parse(String(call?.init?.body))).toEqual({ actionCode: 'c4', newPassword: 'new-pass-1!' });
  });

  it('opts out of updates and goes to the root on close', async () => {
    stubApi({ 'POST /v1/user/opt-out-of-updates': () => json({ status: 'ok' }) });
    const router = renderApp('/auth/action?mode=optOutOfUpdates&oobCode=k&continueUrl=%2Fapp%2Fsettings');
    fireEvent.click(within(await dialog('Opted out of updates')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('raises an error for an unknown mode', async () => {
    stubApi({});
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/auth/action?mode=signMeIn&oobCode=x');
    expect(
      await screen.findByRole('heading', { name: "This link doesn't work" }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByText(/Unknown account action "signMeIn"/)).toBeTruthy();
  });
});

describe('the app shell query parameters and session (accounts §2, §4)', () => {
  const signedIn = (user = makeUser()) => {
    setAccessToken('t1');
    return { 'GET /v1/user': () => json(user) } satisfies Record<string, Handler>;
  };

  it('verifies internalCode when signed in with newUser=false, keeps the code and goes to the root', async () => {
    const calls = stubApi({
      ...signedIn(),
      'POST /v1/user/verify-sensitive-action-code': () => json({ status: 'ok' }),
    });
    const router = renderApp('/app/settings/api-keys?internalCode=ic1&newUser=false');
    expect(
      await screen.findByText('Email access verified. Please try the action again.', {}, { timeout: 5000 }),
    ).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(localStorage.getItem('xi:verification-code')).toBe('ic1');
    const call = calls.find((c) => c.key === 'POST /v1/user/verify-sensitive-action-code');
    expect(JSON.parse(String(call?.init?.body))).toEqual({ verification_code: 'ic1' });
  });

  it('clears the stored code and shows the server message when the verification fails', async () => {
    localStorage.setItem('xi:verification-code', 'old');
    stubApi({
      ...signedIn(),
      'POST /v1/user/verify-sensitive-action-code': () =>
        error(400, 'invalid_action_code', 'This code is invalid.'),
    });
    renderApp('/?internalCode=bad&newUser=false');
    expect(await screen.findByText('This code is invalid.', {}, { timeout: 5000 })).toBeTruthy();
    expect(localStorage.getItem('xi:verification-code')).toBeNull();
  });

  it('finishes an email change with the code typed in, as the mail offers', async () => {
    localStorage.setItem('xi:verification-code', 'sa1');
    const calls = stubApi({
      ...signedIn(),
      'POST /v1/user/send-email-change-verification': () => json({ status: 'ok' }),
      'PUT /v1/user/email': () => json({ status: 'ok', email: 'new@example.test' }),
    });
    renderApp('/app/settings');
    await screen.findByRole('heading', { level: 1, name: 'Settings' }, { timeout: 5000 });
    expect(screen.queryByLabelText('Confirmation code')).toBeNull();
    fireEvent.change(screen.getByLabelText('New email'), { target: { value: 'new@example.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change email' }));
    const code = await screen.findByLabelText('Confirmation code');
    // The change request has finished (one action at a time on this page).
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Change email' }).getAttribute('aria-disabled')).toBe(
        'false',
      ),
    );
    fireEvent.change(code, { target: { value: ' 123456 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(
      await screen.findByText('Email updated! Please refresh this page to reauthenticate.'),
    ).toBeTruthy();
    const put = calls.find((c) => c.key === 'PUT /v1/user/email');
    expect(put?.url).toContain('verification_code=123456');
    expect(put?.url).toContain('is_reverting=false');
    await waitFor(() => expect(screen.queryByLabelText('Confirmation code')).toBeNull());
  });

  it('counts activity in another tab before signing out', async () => {
    stubApi({
      ...signedIn(makeUser({ session_inactivity_timeout: 1 })),
      'POST /v1/auth/sign-out': () => json({ status: 'ok' }),
    });
    renderApp('/app/settings');
    await screen.findByRole('heading', { level: 1, name: 'Settings' }, { timeout: 5000 });
    // Another tab writes its activity to the shared storage for 1.5 s.
    const otherTab = setInterval(() => localStorage.setItem('xi:last-activity', String(Date.now())), 200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    clearInterval(otherTab);
    expect(screen.queryByText('You were signed out')).toBeNull();
    expect(await screen.findByText('You were signed out', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('signs out after the workspace inactivity timeout, saying why', async () => {
    const calls = stubApi({
      ...signedIn(makeUser({ session_inactivity_timeout: 1 })),
      'POST /v1/auth/sign-out': () => json({ status: 'ok' }),
    });
    const router = renderApp('/app/settings');
    expect(await screen.findByText('You were signed out', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(/There was no activity for 1 second/)).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/sign-in'), { timeout: 5000 });
    expect(calls.some((c) => c.key === 'POST /v1/auth/sign-out')).toBe(true);
    // A sign-out forgets who was here, also once its 1 s delay is over: the sign-in email stays empty.
    const email = await screen.findByLabelText<HTMLInputElement>('Email', {}, { timeout: 5000 });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Account' })).toBeNull(), {
      timeout: 3000,
    });
    expect(readCachedUser()).toBeNull();
    expect(email.value).toBe('');
  });

  it('keeps the cached user cookie of the signed-in user, which fills in the sign-in email once the session lapsed', async () => {
    const user = makeUser({ email: 'grace@example.test', ccpa_opt_out: true });
    stubApi(signedIn(user));
    renderApp('/app/settings');
    await waitFor(() => expect(readCachedUser()?.email).toBe('grace@example.test'), { timeout: 5000 });
    expect(readCachedUser()).toEqual({
      ccpa_opt_out: true,
      user_id: user.user_id,
      workspace_id: user.workspace_id,
      email: 'grace@example.test',
    });
    cleanup();
    // The session lapsed without a sign-out: no token, the refresh is refused.
    setAccessToken(null);
    stubApi({ 'POST /v1/auth/refresh': () => error(401, 'unauthorized') });
    renderApp('/app/sign-in');
    const email = await screen.findByLabelText<HTMLInputElement>('Email', {}, { timeout: 5000 });
    expect(email.value).toBe('grace@example.test');
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
  });

  it('words the timeout', () => {
    expect(describeTimeout(3600)).toBe('1 hour');
    expect(describeTimeout(900)).toBe('15 minutes');
    expect(describeTimeout(90)).toBe('90 seconds');
  });
});
