import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { apiError, json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import {
  callsTo,
  cleanUpWorkspaceTest,
  makeGroup,
  makeMember,
  makeWorkspaceSummary,
  ownerMember,
  stubWorkspaceApi,
} from '../test/workspace-fixture';

const bob = makeMember();
const carol = makeMember({
  user_id: 'u3',
  email: 'carol@example.test',
  first_name: null,
  role: 'editor',
  is_locked: true,
});
const pending = {
  invite_id: 'i1',
  email: 'dave@example.test',
  role: 'member',
  seat_type: 'workspace_member',
  created_at_unix: 1_750_000_000,
  expires_at_unix: 1_750_604_800,
};

function stubMembersApi(handlers: Parameters<typeof stubWorkspaceApi>[0] = {}) {
  return stubWorkspaceApi({
    'GET /v1/workspace/members': () => json([ownerMember, bob, carol]),
    'GET /v1/workspace/invites': () => json({ invites: [pending] }),
    'GET /v1/workspace/groups': () => json({ g1: makeGroup() }),
    ...handlers,
  });
}

/** A badge, not the role select's option of the same text. */
const badge = { selector: 'span' };

const findList = () => screen.findByRole('list', { name: 'Members' }, { timeout: 5000 });
const row = (list: HTMLElement, email: string) => within(list).getByRole('listitem', { name: email });

afterEach(cleanUpWorkspaceTest);

describe('/app/workspace/members (accounts §1/§6/§9)', () => {
  it('lists the members with their badges, the seats and the pending invitations', async () => {
    stubMembersApi({
      'GET /v1/workspace': () => json(makeWorkspaceSummary({ seats_used: 4, max_seats: 5 })),
    });
    renderApp('/app/workspace/members');
    expect(await screen.findByRole('heading', { level: 1, name: 'Members' })).toBeTruthy();
    const list = await findList();
    expect(within(row(list, 'ada@example.test')).getByText('Owner')).toBeTruthy();
    expect(within(row(list, 'ada@example.test')).getByText('Admin', badge)).toBeTruthy();
    expect(within(row(list, 'bob@example.test')).getByText('Member', badge)).toBeTruthy();
    expect(within(row(list, 'bob@example.test')).getByText(/^Bob ·/)).toBeTruthy();
    expect(within(row(list, 'carol@example.test')).getByText('Editor', badge)).toBeTruthy();
    expect(within(row(list, 'carol@example.test')).getByText('Locked')).toBeTruthy();
    expect(screen.getByText('4 of 5 seats used')).toBeTruthy();
    // The owner's own row has nothing to change; the others have the admin actions.
    expect(within(row(list, 'ada@example.test')).queryByRole('combobox')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Role for bob@example.test' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Lock bob@example.test' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Unlock carol@example.test' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Make bob@example.test owner' })).toBeTruthy();
    const invites = await screen.findByRole('list', { name: 'Pending invitations' });
    expect(within(invites).getByText('dave@example.test')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Withdraw invitation to dave@example.test' })).toBeTruthy();
  });

  it('invites a member with a role and a group, then says so', async () => {
    const calls = stubMembersApi({ 'POST /v1/workspace/invites/add': () => json({ status: 'ok' }) });
    renderApp('/app/workspace/members');
    await findList();
    fireEvent.click(screen.getByRole('button', { name: 'Invite member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a member' });
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: ' eve@example.test ' } });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Role' }), { target: { value: 'editor' } });
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'Narrators' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to eve@example.test')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/workspace/invites/add')[0]?.body).toEqual({
      email: 'eve@example.test',
      role: 'editor',
      group_ids: ['g1'],
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite a member' })).toBeNull());
    // The seats and the pending list are fetched again.
    await waitFor(() => expect(callsTo(calls, 'GET /v1/workspace/invites').length).toBeGreaterThan(1));
  });

  it('shows the server’s reason when the plan has no seat left', async () => {
    const message =
      'Your plan has 1 seat and all are taken. Upgrade the plan, or remove a member or an invitation first.';
    stubMembersApi({
      'POST /v1/workspace/invites/add': () => apiError(403, 'seat_limit_reached', message),
    });
    renderApp('/app/workspace/members');
    await findList();
    fireEvent.click(screen.getByRole('button', { name: 'Invite member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a member' });
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'eve@example.test' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(message);
    expect(screen.getByRole('dialog', { name: 'Invite a member' })).toBeTruthy();
  });

  it('turns "Invite member" off with its reason while every seat is held (issue 18)', async () => {
    stubMembersApi({
      'GET /v1/workspace': () => json(makeWorkspaceSummary({ seats_used: 3, max_seats: 3 })),
    });
    renderApp('/app/workspace/members');
    await findList();
    const invite = await screen.findByRole('button', { name: 'Invite member' }, { timeout: 5000 });
    await waitFor(() => expect(invite.getAttribute('aria-disabled')).toBe('true'));
    const reason = document.getElementById(invite.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe(
      'All 3 seats are taken. Upgrade the plan, withdraw an invitation or remove a member to invite someone new.',
    );
    fireEvent.click(invite);
    expect(screen.queryByRole('dialog', { name: 'Invite a member' })).toBeNull();
  });

  it('leaves "Invite member" on while a seat is free', async () => {
    stubMembersApi({
      'GET /v1/workspace': () => json(makeWorkspaceSummary({ seats_used: 2, max_seats: 3 })),
    });
    renderApp('/app/workspace/members');
    await findList();
    const invite = screen.getByRole('button', { name: 'Invite member' });
    expect(invite.getAttribute('aria-disabled')).toBeNull();
    expect(invite.getAttribute('aria-describedby')).toBeNull();
  });

  it('refuses an invalid email without calling the server', async () => {
    const calls = stubMembersApi();
    renderApp('/app/workspace/members');
    await findList();
    fireEvent.click(screen.getByRole('button', { name: 'Invite member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a member' });
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('Enter a valid email address.')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/workspace/invites/add')).toHaveLength(0);
  });

  it('removes a member after a confirmation', async () => {
    const calls = stubMembersApi({ 'POST /v1/workspace/members/remove': () => json({ status: 'ok' }) });
    renderApp('/app/workspace/members');
    await findList();
    fireEvent.click(screen.getByRole('button', { name: 'Remove bob@example.test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove bob@example.test?' });
    expect(callsTo(calls, 'POST /v1/workspace/members/remove')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    expect(await screen.findByText('bob@example.test was removed from the workspace')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/workspace/members/remove')[0]?.body).toEqual({
      email: 'bob@example.test',
    });
  });

  it('changes a role, locks a member and withdraws an invitation', async () => {
    const calls = stubMembersApi({
      'POST /v1/workspace/members': () => json({ status: 'ok' }),
      'DELETE /v1/workspace/invites': () => json({ status: 'ok' }),
    });
    renderApp('/app/workspace/members');
    await findList();
    fireEvent.change(screen.getByRole('combobox', { name: 'Role for bob@example.test' }), {
      target: { value: 'admin' },
    });
    expect(await screen.findByText('bob@example.test is now admin')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Unlock carol@example.test' }));
    expect(await screen.findByText('carol@example.test is unlocked')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/workspace/members').map((call) => call.body)).toEqual([
      { email: 'bob@example.test', role: 'admin' },
      { email: 'carol@example.test', is_locked: false },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw invitation to dave@example.test' }));
    expect(await screen.findByText('Invitation to dave@example.test withdrawn')).toBeTruthy();
    expect(callsTo(calls, 'DELETE /v1/workspace/invites')[0]?.body).toEqual({ email: 'dave@example.test' });
  });

  it('shows the list read-only to a member', async () => {
    stubMembersApi({
      'GET /v1/workspace': () =>
        json(makeWorkspaceSummary({ role: 'member', is_owner: false, seat_type: 'workspace_member' })),
    });
    renderApp('/app/workspace/members');
    const list = await findList();
    expect(
      await screen.findByText('Only workspace admins can invite, change or remove members.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Invite member' })).toBeNull();
    expect(within(list).queryAllByRole('button')).toHaveLength(0);
    expect(within(list).queryAllByRole('combobox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /^Withdraw invitation/ })).toBeNull();
  });

  it('offers a retry when the members cannot be loaded', async () => {
    let fail = true;
    stubMembersApi({
      'GET /v1/workspace/members': () =>
        fail ? apiError(400, 'bad_request', 'The members could not be read.') : json([ownerMember]),
    });
    renderApp('/app/workspace/members');
    expect(await screen.findByText('The members could not be read.', {}, { timeout: 5000 })).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const list = await findList();
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
  });
});
