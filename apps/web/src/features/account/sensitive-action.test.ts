import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../lib/access-token';
import { getToastMessage, HttpError } from '../../lib/http-error';
import { deleteAccount as deleteAccountCall } from './api/delete-account';
import { runSensitiveAction, verificationSentMessage } from './sensitive-action';

const EMAIL = 'lin@example.test';
/** Where the verified code waits for the retry (accounts §9 "local storage also holds the verification code"). */
const CODE_KEY = 'xi:verification-code';

type Handler = () => Response;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const error = (status: number, code: string, message: string) =>
  json({ detail: { status: code, message } }, status);

/** Stubs fetch with a handler per "METHOD path"; anything else is a 404. */
function stubApi(handlers: Record<string, Handler>) {
  const calls: { key: string; init: RequestInit | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
      calls.push({ key, init });
      const handler = handlers[key];
      return handler ? handler() : error(404, 'not_found', 'Not found.');
    }),
  );
  return calls;
}

const codeSent = (call: { init: RequestInit | undefined } | undefined) =>
  new Headers(call?.init?.headers).get('xi-sensitive-action-code');
const deleteAccount = () => runSensitiveAction(EMAIL, deleteAccountCall);
const refused = () =>
  error(403, 'sensitive_action_verification_required', 'Confirm it is you: we sent a link to your email.');

afterEach(() => {
  vi.unstubAllGlobals();
  setAccessToken(null);
  localStorage.clear();
});

describe('runSensitiveAction (accounts §4 sensitive-action verification, §8)', () => {
  it('sends the stored code with the action and removes it once used', async () => {
    localStorage.setItem(CODE_KEY, 'verified-1');
    const calls = stubApi({ 'DELETE /v1/user/delete': () => json({ status: 'ok' }) });

    expect(await deleteAccount()).toEqual({ status: 'done', value: { status: 'ok' } });
    expect(calls.map((c) => c.key)).toEqual(['DELETE /v1/user/delete']);
    expect(codeSent(calls[0])).toBe('verified-1');
    expect(localStorage.getItem(CODE_KEY)).toBeNull();
  });

  it('clears a code the server no longer accepts and mails a new link to the account address', async () => {
    localStorage.setItem(CODE_KEY, 'stale');
    const calls = stubApi({
      'DELETE /v1/user/delete': refused,
      'POST /v1/user/prepare-internal-verification': () => json({ status: 'ok' }),
    });

    const result = await deleteAccount();
    expect(result).toEqual({ status: 'verificationSent', email: EMAIL });
    expect(codeSent(calls[0])).toBe('stale');
    expect(localStorage.getItem(CODE_KEY)).toBeNull();
    const prepare = calls.find((c) => c.key === 'POST /v1/user/prepare-internal-verification');
    expect(JSON.parse(String(prepare?.init?.body))).toEqual({ email: EMAIL });
    expect(verificationSentMessage(EMAIL)).toBe(
      "To confirm it's you, we sent a link to lin@example.test. Open it, then try again.",
    );
  });

  it('without a stored code sends none, asks for a link and stores nothing', async () => {
    const calls = stubApi({
      'DELETE /v1/user/delete': refused,
      'POST /v1/user/prepare-internal-verification': () => json({ status: 'ok' }),
    });

    expect(await deleteAccount()).toEqual({ status: 'verificationSent', email: EMAIL });
    expect(codeSent(calls[0])).toBeNull();
    expect(localStorage.getItem(CODE_KEY)).toBeNull();
  });

  it('clears the code after any other failure too, and passes the HTTP error on for its toast', async () => {
    localStorage.setItem(CODE_KEY, 'verified-2');
    const message = 'The workspace "Lin" has other members. Transfer its ownership or remove them first.';
    const calls = stubApi({ 'DELETE /v1/user/delete': () => error(409, 'conflict', message) });

    const caught = await deleteAccount().catch((e: unknown) => e);
    expect(caught).toBeInstanceOf(HttpError);
    expect(caught).toMatchObject({ status: 409, errorType: 'conflict' });
    expect(getToastMessage(caught)).toBe(message);
    expect(localStorage.getItem(CODE_KEY)).toBeNull();
    // Not a verification problem: no new link is mailed.
    expect(calls.map((c) => c.key)).toEqual(['DELETE /v1/user/delete']);
  });
});
