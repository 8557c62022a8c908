import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  makeReferralRecord,
  readReferralRecord,
  removeReferralRecord,
  saveReferralRecord,
} from '../features/growth/referral-record';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import { makeSession, makeUser } from '../test/user-fixture';

const DAY = 86_400_000;

/** The sign-up calls; answers what post-registration-user-setup was sent. */
function stubSignUp() {
  const setups: unknown[] = [];
  let signedUp = false;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
      if (key === 'POST /v1/user/pre-sign-up') return json({ status: 'ok', email_available: true });
      if (key === 'POST /v1/auth/sign-up') {
        signedUp = true;
        return json(makeSession(), 201);
      }
      if (key === 'GET /v1/user' && signedUp) return json(makeUser());
      if (key === 'POST /v1/user/post-registration-user-setup') {
        setups.push(JSON.parse(String(init?.body)));
        return json({ status: 'ok' });
      }
      return apiError(401, 'unauthorized');
    }),
  );
  return setups;
}

async function signUp() {
  renderApp('/app/sign-up');
  fireEvent.change(await screen.findByLabelText('Email', {}, { timeout: 5000 }), {
    target: { value: 'new@example.test' },
  });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct-horse-9!' } });
  fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'correct-horse-9!' } });
  fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
  localStorage.clear();
  removeReferralRecord();
});

describe('sign-up with a referral record (accounts §3, §9)', () => {
  it('sends a live record with the post-registration set-up, then forgets it', async () => {
    const record = makeReferralRecord('friend01');
    saveReferralRecord(record);
    const setups = stubSignUp();
    await signUp();
    await waitFor(() => expect(setups).toHaveLength(1), { timeout: 5000 });
    expect(setups[0]).toEqual({ referral: record });
    expect(readReferralRecord()).toBeNull();
  });

  it('leaves an expired record out', async () => {
    saveReferralRecord(makeReferralRecord('friend01', Date.now() - 91 * DAY));
    const setups = stubSignUp();
    await signUp();
    await waitFor(() => expect(setups).toHaveLength(1), { timeout: 5000 });
    expect(setups[0]).toEqual({});
  });
});
