import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { getAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import {
  callsTo,
  cleanUpWorkspaceTest,
  makeReceivedInvite,
  makeWorkspaceSummary,
  ownerMember,
  stubWorkspaceApi,
} from '../test/workspace-fixture';

const GONE = 'This invitation has expired or was withdrawn. Ask the workspace admin for a new one.';

afterEach(cleanUpWorkspaceTest);

describe('/app/settings/workspace-invites (accounts §4)', () => {
  it('accepts the invitation of the mailed link: refreshes the token, refetches, says so and opens the members', async () => {
    let joined = false;
    const calls = stubWorkspaceApi({
      'GET /v1/user/workspace-invites': () => json({ invites: [] }),
      'POST /v1/user/workspace-invites/accept': () => {
        joined = true;
        return json({ status: 'ok', workspace_id: 'w2' });
      },
      'GET /v1/workspace': () =>
        json(joined ? makeWorkspaceSummary({ workspace_id: 'w2', name: 'Globex' }) : makeWorkspaceSummary()),
      'GET /v1/workspace/members': () => json([ownerMember]),
      'GET /v1/workspace/invites': () => json({ invites: [] }),
    });
    const router = renderApp('/app/settings/workspace-invites?invite_code=CODE123');
    expect(await screen.findByRole('heading', { level: 1, name: 'Workspace invitations' })).toBeTruthy();
    const card = await screen.findByRole('region', { name: 'You have been invited to join a workspace' });
    fireEvent.click(within(card).getByRole('button', { name: 'Accept invitation' }));

    expect(await screen.findByText('You joined Globex', {}, { timeout: 5000 })).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/user/workspace-invites/accept')[0]?.body).toEqual({
      invite_code: 'CODE123',
    });
    // The refresh came after the accept, and the new token is the one in use.
    const keys = calls.map((call) => call.key);
    expect(keys.indexOf('POST /v1/auth/refresh')).toBeGreaterThan(
      keys.indexOf('POST /v1/user/workspace-invites/accept'),
    );
    expect(getAccessToken()).toBe('t2');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspace/members'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Members' })).toBeTruthy();
    // The new token's user was read again, and the members page fetched the joined workspace.
    expect(callsTo(calls, 'GET /v1/user').length).toBeGreaterThan(1);
    expect(await screen.findByText('ada@example.test')).toBeTruthy();
  });

  it('says "You joined the workspace" when the joined workspace’s name cannot be read', async () => {
    stubWorkspaceApi({
      'GET /v1/user/workspace-invites': () => json({ invites: [] }),
      'POST /v1/user/workspace-invites/accept': () => json({ status: 'ok', workspace_id: 'w2' }),
      'GET /v1/workspace': () => apiError(503, 'service_unavailable'),
    });
    const router = renderApp('/app/settings/workspace-invites?invite_code=CODE123');
    fireEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }, { timeout: 5000 }));
    expect(await screen.findByText('You joined the workspace', {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspace/members'));
  });

  it('shows why an expired or withdrawn invitation cannot be accepted, and stays', async () => {
    const calls = stubWorkspaceApi({
      'GET /v1/user/workspace-invites': () => json({ invites: [] }),
      'POST /v1/user/workspace-invites/accept': () => apiError(400, 'invalid_action_code', GONE),
    });
    const router = renderApp('/app/settings/workspace-invites?invite_code=OLD');
    const card = await screen.findByRole('region', { name: 'You have been invited to join a workspace' });
    fireEvent.click(within(card).getByRole('button', { name: 'Accept invitation' }));
    expect((await within(card).findByRole('alert')).textContent).toBe(GONE);
    expect(callsTo(calls, 'POST /v1/auth/refresh')).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/app/settings/workspace-invites');
  });

  it('declines the invitation of the mailed link', async () => {
    const calls = stubWorkspaceApi({
      'GET /v1/user/workspace-invites': () => json({ invites: [] }),
      'POST /v1/user/workspace-invites/decline': () => json({ status: 'ok' }),
    });
    const router = renderApp('/app/settings/workspace-invites?invite_code=CODE123');
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }, { timeout: 5000 }));
    expect(await screen.findByText('Invitation declined')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/user/workspace-invites/decline')[0]?.body).toEqual({
      invite_code: 'CODE123',
    });
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'You have been invited to join a workspace' })).toBeNull(),
    );
  });

  it('lists the invitations to the user, to accept or decline', async () => {
    let invites = [
      makeReceivedInvite(),
      makeReceivedInvite({ invite_id: 'i2', workspace_id: 'w3', workspace_name: 'Initech', role: 'editor' }),
    ];
    const calls = stubWorkspaceApi({
      'GET /v1/user/workspace-invites': () => json({ invites }),
      'POST /v1/user/workspace-invites/decline': () => {
        invites = invites.filter((invite) => invite.invite_id !== 'i2');
        return json({ status: 'ok' });
      },
      'POST /v1/user/workspace-invites/accept': () => json({ status: 'ok', workspace_id: 'w2' }),
    });
    const router = renderApp('/app/settings/workspace-invites');
    const list = await screen.findByRole('list', { name: 'Invitations to you' }, { timeout: 5000 });
    expect(within(list).getByText('Globex')).toBeTruthy();
    expect(within(list).getAllByText(/^From Hank · Expires/)).toHaveLength(2);
    expect(screen.queryByRole('region', { name: 'You have been invited to join a workspace' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Decline invitation to Initech' }));
    expect(await screen.findByText('Invitation declined')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Initech')).toBeNull());
    expect(callsTo(calls, 'POST /v1/user/workspace-invites/decline')[0]?.body).toEqual({ invite_id: 'i2' });

    fireEvent.click(screen.getByRole('button', { name: 'Accept invitation to Globex' }));
    expect(await screen.findByText('You joined Globex', {}, { timeout: 5000 })).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/user/workspace-invites/accept')[0]?.body).toEqual({ invite_id: 'i1' });
    expect(callsTo(calls, 'POST /v1/auth/refresh')).toHaveLength(1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspace/members'));
  });

  it('says when there is no invitation', async () => {
    stubWorkspaceApi({ 'GET /v1/user/workspace-invites': () => json({ invites: [] }) });
    renderApp('/app/settings/workspace-invites');
    expect(await screen.findByText('No invitations right now', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('sends a signed-out visitor to sign in, keeping the invitation code for the way back', async () => {
    stubWorkspaceApi({ 'GET /v1/user': () => apiError(401, 'unauthorized') });
    const router = renderApp('/app/settings/workspace-invites?invite_code=CODE123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/sign-in'), { timeout: 5000 });
    const redirect = new URLSearchParams(router.state.location.search).get('redirect');
    expect(redirect).toBe('/app/settings/workspace-invites?invite_code=CODE123');
    // Kept too, for a way back that loses the redirect (sign-up, then the verification mail).
    expect(localStorage.getItem('xi:invite-code')).toBe('CODE123');
    localStorage.removeItem('xi:invite-code');
  });

  it('offers the invitation kept from a link opened before signing in, and forgets it once answered', async () => {
    localStorage.setItem('xi:invite-code', 'KEPT42');
    const calls = stubWorkspaceApi({
      'GET /v1/user/workspace-invites': () => json({ invites: [] }),
      'POST /v1/user/workspace-invites/accept': () => json({ status: 'ok', workspace_id: 'w2' }),
    });
    const router = renderApp('/app/settings/workspace-invites');
    const card = await screen.findByRole(
      'region',
      { name: 'You have been invited to join a workspace' },
      { timeout: 5000 },
    );
    expect(router.state.location.search).toBe('?invite_code=KEPT42');
    fireEvent.click(within(card).getByRole('button', { name: 'Accept invitation' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspace/members'), {
      timeout: 5000,
    });
    expect(callsTo(calls, 'POST /v1/user/workspace-invites/accept')[0]?.body).toEqual({
      invite_code: 'KEPT42',
    });
    expect(localStorage.getItem('xi:invite-code')).toBeNull();
  });

  it('forgets a kept invitation the server refuses (expired or withdrawn)', async () => {
    localStorage.setItem('xi:invite-code', 'OLD');
    stubWorkspaceApi({
      'GET /v1/user/workspace-invites': () => json({ invites: [] }),
      'POST /v1/user/workspace-invites/accept': () => apiError(400, 'invalid_action_code', GONE),
    });
    renderApp('/app/settings/workspace-invites');
    const card = await screen.findByRole(
      'region',
      { name: 'You have been invited to join a workspace' },
      { timeout: 5000 },
    );
    fireEvent.click(within(card).getByRole('button', { name: 'Accept invitation' }));
    expect((await within(card).findByRole('alert')).textContent).toBe(GONE);
    expect(localStorage.getItem('xi:invite-code')).toBeNull();
  });
});
