import { randomBytes } from 'node:crypto';
import type { PendingInvite, ReceivedInvite, WorkspaceRole } from '@parla/contracts';
import type { z } from 'zod';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { workspaceInvitationsSent } from '../../platform/events/catalog';
import { newId } from '../../platform/ids';
import { sha256Hex } from '../../platform/secrets';
import { getUser, setUserWorkspace, updateUser } from '../users';
import type { UserRow } from '../users/users.tables';
import { addGroupMembers, listGroupIdsAmong } from './groups.store';
import { toPendingInvite, toReceivedInvite } from './invites.present';
import {
  getInviteWorkspaceId,
  type InviteKey,
  type InviteRow,
  insertInvites,
  listInvitesTo,
  listPendingInviteEmailsAmong,
  listPendingInviteRows,
  lockInvite,
  revokeInvites,
  revokePendingInvite,
  revokePendingInvitesTo,
  setInviteStatus,
} from './invites.store';
import {
  loadWorkspace,
  maxSeatsOf,
  requireWorkspaceAdmin,
  seatLimit,
  seatsUsed,
  type WorkspaceCaller,
  type WorkspaceDeps,
} from './members.service';
import { countMembers, insertMember, listMemberEmailsAmong } from './members.store';
import { workspaceInviteMail } from './workspace-mail';
import { getMemberRole } from './workspaces.store';

/** An invitation stays good for a week. */
const INVITE_TTL_MS = 7 * 24 * 3600_000;

export async function inviteMembers(
  deps: WorkspaceDeps,
  caller: WorkspaceCaller,
  input: { emails: string[]; role: WorkspaceRole; groupIds: string[] },
): Promise<void> {
  await requireWorkspaceAdmin(deps.db, caller);
  const emails = [...new Set(input.emails.map((e) => e.toLowerCase()))];
  const now = deps.clock.now();
  const sent = await deps.db.transaction(async (tx) => {
    const workspace = await loadWorkspace(tx, caller.workspaceId, true);
    if (input.groupIds.length > 0) {
      const groups = await listGroupIdsAmong(tx, workspace.id, input.groupIds);
      if (groups.length !== new Set(input.groupIds).size) {
        throw new AppError(
          'resource_not_found',
          'A group of this invitation does not exist in the workspace.',
        );
      }
    }
    const [member] = await listMemberEmailsAmong(tx, workspace.id, emails);
    if (member) throw new AppError('bad_request', `${member} is already a member of this workspace.`);
    const pending = await listPendingInviteEmailsAmong(tx, workspace.id, emails, now);
    // A new invitation to an address already invited replaces the old one and takes no new seat.
    const newSeats = emails.length - new Set(pending).size;
    const max = maxSeatsOf(workspace);
    if ((await seatsUsed(tx, workspace.id, now)) + newSeats > max) throw seatLimit(max);
    await revokePendingInvitesTo(tx, workspace.id, emails, now);
    const inviter = await getUser(tx, caller.userId);
    const invites = emails.map((email) => ({
      email,
      id: newId(),
      code: randomBytes(32).toString('base64url'),
    }));
    await insertInvites(
      tx,
      invites.map((invite) => ({
        id: invite.id,
        workspaceId: workspace.id,
        email: invite.email,
        codeHash: sha256Hex(invite.code),
        role: input.role,
        groupIds: [...new Set(input.groupIds)],
        invitedByUserId: caller.userId,
        expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
      })),
    );
    return {
      invites,
      workspaceName: workspace.name,
      inviter: inviter?.firstName || inviter?.email || 'A member',
    };
  });
  await deps.events.publish(workspaceInvitationsSent, {
    workspaceId: caller.workspaceId,
    workspaceName: sent.workspaceName,
    inviter: sent.inviter,
    emails: sent.invites.map((i) => i.email),
  });
  for (const [index, invite] of sent.invites.entries()) {
    const link = new URL('/app/settings/workspace-invites', `${deps.publicUrl}/`);
    link.searchParams.set('invite_code', invite.code);
    try {
      await deps.mailer.send(
        workspaceInviteMail({
          to: invite.email,
          workspaceName: sent.workspaceName,
          inviter: sent.inviter,
          link: link.toString(),
        }),
      );
    } catch (error) {
      // Invitations nobody received (this one and those not sent yet) must not hold seats.
      await revokeInvites(
        deps.db,
        sent.invites.slice(index).map((i) => i.id),
        deps.clock.now(),
      );
      deps.logger.error({ err: error }, 'workspace invite mail could not be sent');
      throw new AppError(
        'service_unavailable',
        `The invitation to ${invite.email} could not be sent. Please try again later.`,
        {
          cause: error,
        },
      );
    }
  }
}

export async function deleteInvite(
  deps: WorkspaceDeps,
  caller: WorkspaceCaller,
  email: string,
): Promise<void> {
  await requireWorkspaceAdmin(deps.db, caller);
  const withdrawn = await revokePendingInvite(
    deps.db,
    caller.workspaceId,
    email.toLowerCase(),
    deps.clock.now(),
  );
  if (!withdrawn) {
    throw new AppError('resource_not_found', `There is no pending invitation for ${email}.`);
  }
}

export async function listPendingInvites(
  deps: WorkspaceDeps,
  caller: WorkspaceCaller,
): Promise<z.infer<typeof PendingInvite>[]> {
  await requireWorkspaceAdmin(deps.db, caller);
  const rows = await listPendingInviteRows(deps.db, caller.workspaceId, deps.clock.now());
  return rows.map(toPendingInvite);
}

/** Pending invitations to the caller's address, once that address is verified. */
export async function listReceivedInvites(deps: WorkspaceDeps, userId: string): Promise<ReceivedInvite[]> {
  const user = await getUser(deps.db, userId);
  if (!user?.emailVerifiedAt) return [];
  const rows = await listInvitesTo(deps.db, user.email, deps.clock.now());
  return rows.map(toReceivedInvite);
}

const GONE = 'This invitation has expired or was withdrawn. Ask the workspace admin for a new one.';

type InviteAnswer = { invite_code?: string | undefined; invite_id?: string | undefined };

/** How an answer names its invitation: the mailed code, else the id from the invitee's list. */
function inviteKey(answer: InviteAnswer): InviteKey {
  return answer.invite_code ? { codeHash: sha256Hex(answer.invite_code) } : { id: answer.invite_id ?? '' };
}

/** The invitation an answer names, locked; only the invited address may answer it. */
async function inviteToAnswer(db: Db, user: UserRow, answer: InviteAnswer, now: Date): Promise<InviteRow> {
  const invite = await lockInvite(db, inviteKey(answer));
  // An invite found by id is only answerable by its verified addressee; unknown reads as gone.
  if (!invite || (!answer.invite_code && (invite.email !== user.email || !user.emailVerifiedAt))) {
    throw new AppError('invalid_action_code', GONE);
  }
  if (invite.status !== 'pending' || invite.expiresAt <= now) throw new AppError('invalid_action_code', GONE);
  if (invite.email !== user.email) {
    throw new AppError(
      'forbidden',
      `This invitation was sent to ${invite.email}. Sign in with that address to answer it.`,
    );
  }
  return invite;
}

/**
 * Joins the inviting workspace with the invited role and groups and makes it the user's current one
 * (accounts §4: the client then forces a token refresh, whose token names it).
 */
export async function acceptInvite(
  deps: WorkspaceDeps,
  userId: string,
  answer: InviteAnswer,
): Promise<string> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const user = await getUser(tx, userId);
    if (!user) throw new AppError('unauthorized', 'Sign in to answer the invitation.');
    // The workspace row first, then the invitation: the order inviteMembers takes them in.
    const named = await getInviteWorkspaceId(tx, inviteKey(answer));
    if (named) await loadWorkspace(tx, named, true);
    const invite = await inviteToAnswer(tx, user, answer, now);
    const workspace = await loadWorkspace(tx, invite.workspaceId);
    const existing = await getMemberRole(tx, workspace.id, user.id);
    if (!existing) {
      // The invitation held a seat; a plan changed since may have fewer.
      const max = maxSeatsOf(workspace);
      if ((await countMembers(tx, workspace.id)) >= max) throw seatLimit(max);
      await insertMember(tx, { workspaceId: workspace.id, userId: user.id, role: invite.role });
      const groups = invite.groupIds.length ? await listGroupIdsAmong(tx, workspace.id, invite.groupIds) : [];
      if (groups.length > 0) {
        await addGroupMembers(
          tx,
          groups.map((groupId) => ({ groupId, userId: user.id })),
        );
      }
    }
    await setInviteStatus(tx, invite.id, 'accepted', now);
    // Following the mailed link proves the mailbox.
    if (!user.emailVerifiedAt && answer.invite_code) await updateUser(tx, user.id, { emailVerifiedAt: now });
    await setUserWorkspace(tx, user.id, workspace.id);
    return workspace.id;
  });
}

export async function declineInvite(
  deps: WorkspaceDeps,
  userId: string,
  answer: InviteAnswer,
): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const user = await getUser(tx, userId);
    if (!user) throw new AppError('unauthorized', 'Sign in to answer the invitation.');
    const invite = await inviteToAnswer(tx, user, answer, now);
    await setInviteStatus(tx, invite.id, 'declined', now);
  });
}
