import {
  seatTypeOf,
  type UserWorkspace,
  type WorkspaceGroup,
  type WorkspaceMember,
  type WorkspaceRole,
  type WorkspaceSummary,
} from '@parla/contracts';
import type { z } from 'zod';
import { toUnixSeconds } from '../../platform/clock';
import type { GroupRow } from './groups.store';
import type { MemberRow } from './members.store';
import type { WorkspaceRow } from './workspaces.tables';

/** The caller's workspace as `GET /v1/workspace` shows it (accounts §6, §9). */
export function toWorkspaceSummary(
  workspace: WorkspaceRow,
  seen: { userId: string; role: WorkspaceRole; maxSeats: number; seatsUsed: number },
): WorkspaceSummary {
  return {
    workspace_id: workspace.id,
    name: workspace.name,
    owner_id: workspace.ownerId,
    is_owner: workspace.ownerId === seen.userId,
    role: seen.role,
    seat_type: seatTypeOf(seen.role),
    max_seats: seen.maxSeats,
    seats_used: seen.seatsUsed,
    session_inactivity_timeout: workspace.sessionInactivityTimeout,
    created_at_unix: toUnixSeconds(workspace.createdAt),
    // Answered by the webhooks module (its manifest's workspaceFields) when it is there.
    speech_to_text_webhook_ids: [],
    // Answered by the pronunciation-dictionaries module (its manifest's workspaceFields).
    pronunciation_dictionary_locators: [],
  };
}

/** A member in the workspace's member list. */
export function toWorkspaceMember(
  row: { member: MemberRow; email: string; firstName: string | null },
  ownerId: string,
): WorkspaceMember {
  return {
    user_id: row.member.userId,
    email: row.email,
    first_name: row.firstName,
    seat_type: seatTypeOf(row.member.role),
    is_owner: row.member.userId === ownerId,
    is_locked: row.member.isLocked,
    role: row.member.role,
    joined_at_unix: toUnixSeconds(row.member.createdAt),
  };
}

/** One of the caller's workspaces, in the workspace switcher. */
export function toUserWorkspace(
  row: { id: string; name: string; ownerId: string; role: WorkspaceRole },
  caller: { userId: string; workspaceId: string },
): z.infer<typeof UserWorkspace> {
  return {
    workspace_id: row.id,
    name: row.name,
    role: row.role,
    is_owner: row.ownerId === caller.userId,
    is_current: row.id === caller.workspaceId,
  };
}

/** A group with its members' addresses (groups have no permissions of their own yet). */
export function toWorkspaceGroup(
  group: Pick<GroupRow, 'id' | 'name'>,
  memberEmails: string[],
): WorkspaceGroup {
  return { id: group.id, name: group.name, members: memberEmails, permissions: [] };
}

/** A group as the group search finds it. */
export function toGroupSearchResult(group: WorkspaceGroup): {
  id: string;
  name: string;
  members_emails: string[];
} {
  return { id: group.id, name: group.name, members_emails: group.members };
}
