import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { workspaceInvites, workspaces } from './workspaces.tables';

export type InviteRow = typeof workspaceInvites.$inferSelect;
export type InviteStatus = InviteRow['status'];

/** An invitation still waiting for an answer: pending and not expired. */
const awaitingAnswer = (now: Date) =>
  and(eq(workspaceInvites.status, 'pending'), gt(workspaceInvites.expiresAt, now));

/** How an answer names its invitation: the hash of the mailed code, or the id the invitee's list shows. */
export type InviteKey = { codeHash: string } | { id: string };

function byKey(key: InviteKey) {
  return 'codeHash' in key ? eq(workspaceInvites.codeHash, key.codeHash) : eq(workspaceInvites.id, key.id);
}

/** The workspace's pending, unexpired invitations, counted by address (each holds one seat). */
export async function countPendingInviteEmails(db: Db, workspaceId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${workspaceInvites.email})::int` })
    .from(workspaceInvites)
    .where(and(eq(workspaceInvites.workspaceId, workspaceId), awaitingAnswer(now)));
  return row?.n ?? 0;
}

/** Which of these addresses hold a pending, unexpired invitation of the workspace (one row each). */
export async function listPendingInviteEmailsAmong(
  db: Db,
  workspaceId: string,
  emails: string[],
  now: Date,
): Promise<string[]> {
  const rows = await db
    .select({ email: workspaceInvites.email })
    .from(workspaceInvites)
    .where(
      and(
        eq(workspaceInvites.workspaceId, workspaceId),
        awaitingAnswer(now),
        inArray(workspaceInvites.email, emails),
      ),
    );
  return rows.map((row) => row.email);
}

/** Withdraws the workspace's pending invitations to these addresses. */
export async function revokePendingInvitesTo(
  db: Db,
  workspaceId: string,
  emails: string[],
  now: Date,
): Promise<void> {
  await db
    .update(workspaceInvites)
    .set({ status: 'revoked', respondedAt: now })
    .where(
      and(
        eq(workspaceInvites.workspaceId, workspaceId),
        eq(workspaceInvites.status, 'pending'),
        inArray(workspaceInvites.email, emails),
      ),
    );
}

/** Withdraws the workspace's pending invitation to one address; false when there was none. */
export async function revokePendingInvite(
  db: Db,
  workspaceId: string,
  email: string,
  now: Date,
): Promise<boolean> {
  const withdrawn = await db
    .update(workspaceInvites)
    .set({ status: 'revoked', respondedAt: now })
    .where(
      and(
        eq(workspaceInvites.workspaceId, workspaceId),
        eq(workspaceInvites.email, email),
        eq(workspaceInvites.status, 'pending'),
      ),
    )
    .returning({ id: workspaceInvites.id });
  return withdrawn.length > 0;
}

/** Withdraws these invitations, whatever their state. */
export async function revokeInvites(db: Db, ids: string[], now: Date): Promise<void> {
  await db
    .update(workspaceInvites)
    .set({ status: 'revoked', respondedAt: now })
    .where(inArray(workspaceInvites.id, ids));
}

export async function insertInvites(db: Db, rows: (typeof workspaceInvites.$inferInsert)[]): Promise<void> {
  await db.insert(workspaceInvites).values(rows);
}

/** The workspace's pending, unexpired invitations, oldest first. */
export async function listPendingInviteRows(db: Db, workspaceId: string, now: Date): Promise<InviteRow[]> {
  return db
    .select()
    .from(workspaceInvites)
    .where(and(eq(workspaceInvites.workspaceId, workspaceId), awaitingAnswer(now)))
    .orderBy(asc(workspaceInvites.createdAt));
}

/** The pending, unexpired invitations to an address, with their workspace's name and who sent them. */
export async function listInvitesTo(
  db: Db,
  email: string,
  now: Date,
): Promise<{ invite: InviteRow; workspaceName: string; inviter: string | null }[]> {
  const inviter = sql<
    string | null
  >`(select coalesce(nullif(u.first_name, ''), u.email) from users u where u.id = ${workspaceInvites.invitedByUserId})`;
  return db
    .select({ invite: workspaceInvites, workspaceName: workspaces.name, inviter })
    .from(workspaceInvites)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvites.workspaceId))
    .where(and(eq(workspaceInvites.email, email), awaitingAnswer(now)))
    .orderBy(asc(workspaceInvites.createdAt));
}

/** The workspace an invitation belongs to, or undefined (read without a lock). */
export async function getInviteWorkspaceId(db: Db, key: InviteKey): Promise<string | undefined> {
  const [row] = await db
    .select({ workspaceId: workspaceInvites.workspaceId })
    .from(workspaceInvites)
    .where(byKey(key));
  return row?.workspaceId;
}

/** An invitation, locked for the transaction, or undefined. */
export async function lockInvite(db: Db, key: InviteKey): Promise<InviteRow | undefined> {
  const [row] = await db.select().from(workspaceInvites).where(byKey(key)).for('update');
  return row;
}

/** Records the answer to an invitation. */
export async function setInviteStatus(db: Db, id: string, status: InviteStatus, now: Date): Promise<void> {
  await db.update(workspaceInvites).set({ status, respondedAt: now }).where(eq(workspaceInvites.id, id));
}
