import type { ResourceMetadata } from '@parla/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json } from '../../../test/billing-fixture';
import { renderApp } from '../../../test/render-app';
import { makeOwnVoice, voicePage } from '../../../test/voices-fixture';
import {
  callsTo,
  cleanUpWorkspaceTest,
  makeGroup,
  makeMember,
  ownerMember,
  stubWorkspaceApi,
} from '../../../test/workspace-fixture';

const mine = makeOwnVoice({ voice_id: 'c1', name: 'Studio Ada' });
const shared = makeOwnVoice({ voice_id: 'c2', name: 'Team Tom', is_owner: false });
const bob = makeMember();

function metadata(roles: Record<string, string[]>): ResourceMetadata {
  return {
    resource_id: 'c1',
    resource_name: 'Studio Ada',
    resource_type: 'voice',
    creator_user_id: 'u1',
    role_to_group_ids: { admin: ['u1'], ...roles },
    share_options: [],
    your_role: 'admin',
  };
}

/** The voice lab with one own voice and one a member shared; the resource answers `roles` until changed. */
function stubShareApi(roles: Record<string, string[]> = { viewer: ['default', 'g1'] }) {
  let current = roles;
  return stubWorkspaceApi({
    'GET /v1/voices': () => json({ voices: [mine, shared] }),
    'GET /v2/voices': () => json(voicePage([mine, shared])),
    'GET /v1/workspace/members': () => json([ownerMember, bob]),
    'GET /v1/workspace/groups': () => json({ g1: makeGroup({ members: [bob.email] }) }),
    'GET /v1/workspace/resources/c1': () => json(metadata(current)),
    'POST /v1/workspace/resources/c1/share': () => {
      current = { ...current, editor: [bob.user_id] };
      return json({ status: 'ok' });
    },
    'POST /v1/workspace/resources/c1/unshare': () => {
      current = { viewer: ['g1'] };
      return json({ status: 'ok' });
    },
  });
}

afterEach(cleanUpWorkspaceTest);

async function openShareDialog() {
  fireEvent.click(
    await screen.findByRole('button', { name: 'Share Studio Ada with your workspace' }, { timeout: 5000 }),
  );
  return screen.findByRole('dialog', { name: 'Share Studio Ada' });
}

describe('sharing a voice with the workspace (history/voices §7)', () => {
  it('offers sharing only on the caller’s own voices, and marks those shared with them', async () => {
    stubShareApi();
    renderApp('/app/voice-lab');
    const list = await screen.findByRole('list', { name: 'My voices' }, { timeout: 5000 });
    const tom = within(list).getByRole('listitem', { name: 'Team Tom' });
    expect(within(tom).getByText('Shared with you')).toBeTruthy();
    expect(within(tom).queryByRole('button', { name: 'Share Team Tom with your workspace' })).toBeNull();
    const ada = within(list).getByRole('listitem', { name: 'Studio Ada' });
    expect(within(ada).queryByText('Shared with you')).toBeNull();
  });

  it('lists who has access by email, group name and everyone, and shares with a member', async () => {
    const calls = stubShareApi();
    renderApp('/app/voice-lab');
    const dialog = await openShareDialog();
    expect(await within(dialog).findByText('ada@example.test')).toBeTruthy();
    expect(within(dialog).getByText('Creator')).toBeTruthy();
    expect(within(dialog).getByText('Narrators', { selector: 'span' })).toBeTruthy();
    expect(within(dialog).getByText('Everyone in the workspace', { selector: 'span' })).toBeTruthy();
    // The creator's access cannot be taken away.
    expect(within(dialog).queryByRole('button', { name: 'Stop sharing with ada@example.test' })).toBeNull();

    const target = within(dialog).getByRole('combobox', { name: 'Share with' });
    const options = within(target)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['Everyone in the workspace', 'bob@example.test', 'Narrators']);
    fireEvent.change(target, { target: { value: 'user:bob@example.test' } });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Access' }), {
      target: { value: 'editor' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Share' }));

    expect(await screen.findByText('Studio Ada is shared with bob@example.test')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/workspace/resources/c1/share')[0]?.body).toEqual({
      resource_type: 'voice',
      role: 'editor',
      user_email: 'bob@example.test',
    });
    expect(
      await within(dialog).findByRole('button', { name: 'Stop sharing with bob@example.test' }),
    ).toBeTruthy();
    expect(callsTo(calls, 'GET /v1/workspace/resources/c1')[0]?.query.get('resource_type')).toBe('voice');
  });

  it('stops sharing with everyone in the workspace', async () => {
    const calls = stubShareApi();
    renderApp('/app/voice-lab');
    const dialog = await openShareDialog();
    fireEvent.click(
      await within(dialog).findByRole('button', { name: 'Stop sharing with Everyone in the workspace' }),
    );
    expect(
      await screen.findByText('Studio Ada is no longer shared with Everyone in the workspace'),
    ).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/workspace/resources/c1/unshare')[0]?.body).toEqual({
      resource_type: 'voice',
      group_id: 'default',
    });
    await waitFor(() =>
      expect(
        within(dialog).queryByRole('button', { name: 'Stop sharing with Everyone in the workspace' }),
      ).toBeNull(),
    );
    expect(within(dialog).getByRole('button', { name: 'Stop sharing with Narrators' })).toBeTruthy();
  });
});
