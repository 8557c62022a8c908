import { SESSION_INACTIVITY_TIMEOUTS } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { afterSignInPath } from '../auth/post-login';
import { joinedMessage } from './use-answer-invite';
import {
  describeInactivityTimeout,
  describeSeats,
  inviteBlockedReason,
  listShareChoices,
  memberDisplayName,
  resolveGrants,
} from './workspace-rules';

const members = [
  { user_id: 'u1', email: 'ada@example.test' },
  { user_id: 'u2', email: 'bob@example.test' },
];
const groups = [{ id: 'g1', name: 'Narrators' }];

describe('workspace rules', () => {
  it('says the seats in words', () => {
    expect(describeSeats(2, 3)).toBe('2 of 3 seats used');
    expect(describeSeats(1, 1)).toBe('1 of 1 seat used');
  });

  it('says why no one can be invited while every seat is held, in words that fit one seat', () => {
    expect(inviteBlockedReason(1, 3)).toBeUndefined();
    expect(inviteBlockedReason(1, 1)).toMatch(/^The only seat is taken\. /);
    expect(inviteBlockedReason(3, 3)).toMatch(/^All 3 seats are taken\. /);
  });

  it('names every inactivity timeout of the contract, and never', () => {
    expect(SESSION_INACTIVITY_TIMEOUTS.map(describeInactivityTimeout)).toEqual([
      '15 minutes',
      '1 hour',
      '4 hours',
      '8 hours',
      '1 day',
      '1 week',
    ]);
    expect(describeInactivityTimeout(null)).toBe('Never');
    expect(describeInactivityTimeout(90)).toBe('90 seconds');
  });

  it('names a member by first name, else by email', () => {
    expect(memberDisplayName({ email: 'a@x.test', first_name: 'Ada' })).toBe('Ada');
    expect(memberDisplayName({ email: 'a@x.test', first_name: ' ' })).toBe('a@x.test');
    expect(memberDisplayName({ email: 'a@x.test', first_name: null })).toBe('a@x.test');
  });

  it('resolves who has access: creator first, then by role, with what to send to stop sharing', () => {
    const grants = resolveGrants(
      {
        creator_user_id: 'u1',
        role_to_group_ids: { viewer: ['default', 'gone'], admin: ['u1'], editor: ['g1', 'u2'] },
      },
      members,
      groups,
    );
    expect(grants.map((g) => [g.name, g.role, g.isCreator, g.target ?? null])).toEqual([
      ['ada@example.test', 'admin', true, null],
      ['bob@example.test', 'editor', false, { user_email: 'bob@example.test' }],
      ['Narrators', 'editor', false, { group_id: 'g1' }],
      ['Everyone in the workspace', 'viewer', false, { group_id: 'default' }],
      ['gone', 'viewer', false, null],
    ]);
  });

  it('offers everyone, the members but the creator, and the groups to share with', () => {
    expect(listShareChoices('u1', members, groups).map((c) => [c.label, c.target])).toEqual([
      ['Everyone in the workspace', { group_id: 'default' }],
      ['bob@example.test', { user_email: 'bob@example.test' }],
      ['Narrators', { group_id: 'g1' }],
    ]);
  });

  it('says which workspace was joined, or that one was', () => {
    expect(joinedMessage('Acme')).toBe('You joined Acme');
    expect(joinedMessage(undefined)).toBe('You joined the workspace');
  });

  it('brings a visitor back to the invitation with its code after sign-in (accounts §2 redirect)', () => {
    const search = new URLSearchParams({ redirect: '/app/settings/workspace-invites?invite_code=abc_-1' });
    expect(afterSignInPath(search, 'http://localhost')).toBe(
      '/app/settings/workspace-invites?invite_code=abc_-1',
    );
  });
});
