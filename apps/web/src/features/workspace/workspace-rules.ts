import type {
  ResourceMetadata,
  ResourceRole,
  WorkspaceGroup,
  WorkspaceMember,
  WorkspaceRole,
} from '@parla/contracts';
import type { ShareTarget } from './api/share-workspace-resource';

/** The roles in the order the role selects offer them (the plain seat first). */
export const workspaceRoleOptions: readonly WorkspaceRole[] = ['member', 'editor', 'admin'];

export const workspaceRoleLabels: Record<WorkspaceRole, string> = {
  admin: 'Admin',
  editor: 'Editor',
  member: 'Member',
};

/** The access levels the share dialog offers, lowest first (commenting has no use on a voice). */
export const shareRoleOptions: readonly ResourceRole[] = ['viewer', 'editor', 'admin'];

export const resourceRoleLabels: Record<ResourceRole, string> = {
  viewer: 'Viewer',
  commenter: 'Commenter',
  editor: 'Editor',
  admin: 'Admin',
};

/** The `group_id` that stands for everyone in the workspace. */
export const EVERYONE_GROUP_ID = 'default';
export const everyoneLabel = 'Everyone in the workspace';

/** "2 of 3 seats used". */
export function describeSeats(used: number, max: number): string {
  return `${used} of ${max} ${max === 1 ? 'seat' : 'seats'} used`;
}

/**
 * Why "Invite member" is off while every seat is held (issue 18), or undefined while one is free: an
 * invitation takes a seat, so none can be sent until one is freed or the plan has more.
 */
export function inviteBlockedReason(used: number, max: number): string | undefined {
  if (used < max) return undefined;
  const taken = max === 1 ? 'The only seat is taken' : `All ${max} seats are taken`;
  return `${taken}. Upgrade the plan, withdraw an invitation or remove a member to invite someone new.`;
}

/**
 * A session inactivity timeout in words: "Never" for null, else the largest whole unit ("15 minutes",
 * "1 hour", "1 day", "1 week").
 */
export function describeInactivityTimeout(seconds: number | null): string {
  if (seconds === null || seconds <= 0) return 'Never';
  const units: [number, string][] = [
    [604_800, 'week'],
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  for (const [size, word] of units) {
    if (seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${word}${n === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} seconds`;
}

/** A member's name to show: their first name, else their email. */
export function memberDisplayName(member: Pick<WorkspaceMember, 'email' | 'first_name'>): string {
  return member.first_name?.trim() || member.email;
}

/** One holder of access to a shared resource, resolved to a name. */
export interface ResourceGrant {
  /** The id in `role_to_group_ids`: a user id, a group id or `default`. */
  id: string;
  kind: 'user' | 'group' | 'everyone' | 'unknown';
  /** An email, a group name, "Everyone in the workspace", or the bare id when it is no longer known. */
  name: string;
  role: ResourceRole;
  /** The resource's creator: always an admin, never removable. */
  isCreator: boolean;
  /** What to send to stop sharing with them; absent when that is not possible. */
  target?: ShareTarget;
}

const ROLE_ORDER: Record<string, number> = { admin: 0, editor: 1, commenter: 2, viewer: 3 };

/**
 * Who holds access to a resource, from `role_to_group_ids` with user ids resolved to emails (the members)
 * and group ids to names (the groups): the creator first, then by role (highest first) and name.
 */
export function resolveGrants(
  metadata: Pick<ResourceMetadata, 'role_to_group_ids' | 'creator_user_id'>,
  members: readonly Pick<WorkspaceMember, 'user_id' | 'email'>[],
  groups: readonly Pick<WorkspaceGroup, 'id' | 'name'>[],
): ResourceGrant[] {
  const grants: ResourceGrant[] = [];
  for (const [role, ids] of Object.entries(metadata.role_to_group_ids)) {
    if (!(role in ROLE_ORDER)) continue;
    for (const id of ids) {
      const isCreator = id === metadata.creator_user_id;
      const base = { id, role: role as ResourceRole, isCreator };
      const member = members.find((m) => m.user_id === id);
      const group = groups.find((g) => g.id === id);
      if (id === EVERYONE_GROUP_ID) {
        grants.push({ ...base, kind: 'everyone', name: everyoneLabel, target: { group_id: id } });
      } else if (member) {
        grants.push({
          ...base,
          kind: 'user',
          name: member.email,
          ...(isCreator ? {} : { target: { user_email: member.email } }),
        });
      } else if (group) {
        grants.push({ ...base, kind: 'group', name: group.name, target: { group_id: id } });
      } else {
        grants.push({ ...base, kind: 'unknown', name: isCreator ? 'The creator' : id });
      }
    }
  }
  return grants.sort(
    (a, b) =>
      Number(b.isCreator) - Number(a.isCreator) ||
      (ROLE_ORDER[a.role] ?? 9) - (ROLE_ORDER[b.role] ?? 9) ||
      a.name.localeCompare(b.name),
  );
}

/** One choice of the share dialog's "Share with" select; `value` is what the select holds. */
export interface ShareChoice {
  value: string;
  label: string;
  group: 'everyone' | 'members' | 'groups';
  target: ShareTarget;
}

/** The "Share with" choices: everyone, then the members (by email, not the creator), then the groups. */
export function listShareChoices(
  creatorUserId: string | null | undefined,
  members: readonly Pick<WorkspaceMember, 'user_id' | 'email'>[],
  groups: readonly Pick<WorkspaceGroup, 'id' | 'name'>[],
): ShareChoice[] {
  return [
    {
      value: EVERYONE_GROUP_ID,
      label: everyoneLabel,
      group: 'everyone' as const,
      target: { group_id: EVERYONE_GROUP_ID },
    },
    ...members
      .filter((m) => m.user_id !== creatorUserId)
      .map((m) => ({
        value: `user:${m.email}`,
        label: m.email,
        group: 'members' as const,
        target: { user_email: m.email },
      })),
    ...groups.map((g) => ({
      value: `group:${g.id}`,
      label: g.name,
      group: 'groups' as const,
      target: { group_id: g.id },
    })),
  ];
}
