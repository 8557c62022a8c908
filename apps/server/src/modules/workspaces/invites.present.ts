import { type PendingInvite, type ReceivedInvite, seatTypeOf } from '@parla/contracts';
import type { z } from 'zod';
import { toUnixSeconds } from '../../platform/clock';
import type { InviteRow } from './invites.store';

/** A pending invitation in the workspace admins' list. */
export function toPendingInvite(row: InviteRow): z.infer<typeof PendingInvite> {
  return {
    invite_id: row.id,
    email: row.email,
    role: row.role,
    seat_type: seatTypeOf(row.role),
    created_at_unix: toUnixSeconds(row.createdAt),
    expires_at_unix: toUnixSeconds(row.expiresAt),
  };
}

/** An invitation in its invitee's list. */
export function toReceivedInvite(row: {
  invite: InviteRow;
  workspaceName: string;
  inviter: string | null;
}): ReceivedInvite {
  return {
    invite_id: row.invite.id,
    workspace_id: row.invite.workspaceId,
    workspace_name: row.workspaceName,
    invited_by: row.inviter,
    role: row.invite.role,
    expires_at_unix: toUnixSeconds(row.invite.expiresAt),
  };
}
