import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { userDevices, users } from '../users/users.tables';
import { voices } from '../voices/voices.tables';
import { type WorkspaceRow, workspaceMembers, workspaces } from '../workspaces/workspaces.tables';

/** The workspace's own voices (voice_slots_used) and professional clones among them. */
export interface VoiceSlots {
  used: number;
  professional: number;
}

/** Counts a workspace's own voices for its subscription (read over the voices' table). */
export async function voiceSlotsOf(db: Db, workspaceId: string): Promise<VoiceSlots> {
  const [row] = await db
    .select({
      used: sql<number>`count(*)::int`,
      professional: sql<number>`(count(*) filter (where ${voices.category} = 'professional'))::int`,
    })
    .from(voices)
    .where(eq(voices.workspaceId, workspaceId));
  return { used: row?.used ?? 0, professional: row?.professional ?? 0 };
}

/** Gives the user this referral link code unless they have one; answers whether this call set it. */
export async function claimReferralLinkCode(db: Db, userId: string, code: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ referralLinkCode: code })
    .where(and(eq(users.id, userId), isNull(users.referralLinkCode)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Notes a device (by its hash) as seen now; answers whether this was its first sighting. */
export async function touchUserDevice(db: Db, userId: string, fingerprintHash: string): Promise<boolean> {
  const [row] = await db
    .insert(userDevices)
    .values({ userId, fingerprintHash })
    .onConflictDoUpdate({
      target: [userDevices.userId, userDevices.fingerprintHash],
      set: { lastSeenAt: sql`now()` },
    })
    .returning({ firstSeenAt: userDevices.firstSeenAt, lastSeenAt: userDevices.lastSeenAt });
  return row !== undefined && row.firstSeenAt.getTime() === row.lastSeenAt.getTime();
}

/** Turns off a second factor that was turned on after `after` (an email change being reverted). */
export async function clearSecondFactorEnabledAfter(db: Db, userId: string, after: Date): Promise<void> {
  await db
    .update(users)
    .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, backupCodeHash: null })
    .where(and(eq(users.id, userId), gt(users.totpEnabledAt, after)));
}

/** The workspaces a user owns, locked until the transaction ends (no member or item joins meanwhile). */
export async function lockOwnedWorkspaces(tx: Db, userId: string): Promise<WorkspaceRow[]> {
  return tx.select().from(workspaces).where(eq(workspaces.ownerId, userId)).for('update');
}

/** Whether a workspace has a member other than this user. */
export async function hasOtherMember(db: Db, workspaceId: string, userId: string): Promise<boolean> {
  const [other] = await db
    .select({ userId: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), ne(workspaceMembers.userId, userId)))
    .limit(1);
  return other !== undefined;
}

/** The ids of a workspace's own voices (read before it is deleted: the rows go by cascade). */
export async function workspaceVoiceIds(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db.select({ id: voices.id }).from(voices).where(eq(voices.workspaceId, workspaceId));
  return rows.map((row) => row.id);
}

/** Deletes a workspace; its members, items, voices and the rest go by cascade. */
export async function deleteWorkspaceRow(tx: Db, workspaceId: string): Promise<void> {
  await tx.delete(workspaces).where(eq(workspaces.id, workspaceId));
}

/** Deletes a user; their sign-ins, keys and codes go by cascade, their items elsewhere lose their user. */
export async function deleteUserRow(tx: Db, userId: string): Promise<void> {
  await tx.delete(users).where(eq(users.id, userId));
}
