import type { SubscriptionTier } from '@parla/contracts';
import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { workspaces } from '../workspaces/workspaces.tables';
import {
  type BatchCallRecipientRow,
  type BatchCallRow,
  batchCallRecipients,
  batchCalls,
  type PhoneCallRow,
  type PhoneNumberRow,
  phoneCalls,
  phoneNumbers,
} from './telephony.tables';

// Phone numbers --------------------------------------------------------------------------------------------

export async function insertPhoneNumber(
  db: Db,
  row: typeof phoneNumbers.$inferInsert,
): Promise<PhoneNumberRow> {
  const [inserted] = await db.insert(phoneNumbers).values(row).returning();
  if (!inserted) throw new Error('the phone number was not inserted');
  return inserted;
}

export async function getWorkspacePhoneNumber(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<PhoneNumberRow | undefined> {
  const [row] = await db
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.workspaceId, workspaceId), eq(phoneNumbers.id, id)));
  return row;
}

export async function findWorkspaceNumber(
  db: Db,
  workspaceId: string,
  phoneNumber: string,
): Promise<PhoneNumberRow | undefined> {
  const [row] = await db
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.workspaceId, workspaceId), eq(phoneNumbers.phoneNumber, phoneNumber)));
  return row;
}

export function listWorkspacePhoneNumbers(
  db: Db,
  workspaceId: string,
  filter: { provider?: string | undefined; agentId?: string | undefined },
): Promise<PhoneNumberRow[]> {
  const conditions = [eq(phoneNumbers.workspaceId, workspaceId)];
  if (filter.provider)
    conditions.push(eq(phoneNumbers.provider, filter.provider as PhoneNumberRow['provider']));
  if (filter.agentId) conditions.push(eq(phoneNumbers.agentId, filter.agentId));
  return db
    .select()
    .from(phoneNumbers)
    .where(and(...conditions))
    .orderBy(desc(phoneNumbers.createdAt), desc(phoneNumbers.id))
    .limit(1000);
}

export async function updatePhoneNumberRow(
  db: Db,
  workspaceId: string,
  id: string,
  changes: Partial<typeof phoneNumbers.$inferInsert>,
): Promise<PhoneNumberRow | undefined> {
  const [row] = await db
    .update(phoneNumbers)
    .set(changes)
    .where(and(eq(phoneNumbers.workspaceId, workspaceId), eq(phoneNumbers.id, id)))
    .returning();
  return row;
}

export async function deletePhoneNumberRow(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(phoneNumbers)
    .where(and(eq(phoneNumbers.workspaceId, workspaceId), eq(phoneNumbers.id, id)))
    .returning({ id: phoneNumbers.id });
  return rows.length > 0;
}

// Calls ----------------------------------------------------------------------------------------------------

export async function insertPhoneCall(db: Db, row: typeof phoneCalls.$inferInsert): Promise<PhoneCallRow> {
  const [inserted] = await db.insert(phoneCalls).values(row).returning();
  if (!inserted) throw new Error('the phone call was not inserted');
  return inserted;
}

export async function updatePhoneCall(
  db: Db,
  id: string,
  changes: Partial<typeof phoneCalls.$inferInsert>,
): Promise<void> {
  await db.update(phoneCalls).set(changes).where(eq(phoneCalls.id, id));
}

/**
 * Takes a call by its stream token: once (a second stream with the same token finds nothing) and only
 * while it is fresh (created after `since`).
 */
export async function claimPhoneCall(
  db: Db,
  tokenHash: string,
  since: Date,
  now: Date,
  stream: { streamSid: string; callSid: string },
): Promise<PhoneCallRow | undefined> {
  const [row] = await db
    .update(phoneCalls)
    .set({ streamedAt: now, status: 'in_progress', streamSid: stream.streamSid, callSid: stream.callSid })
    .where(
      and(
        eq(phoneCalls.tokenHash, tokenHash),
        isNull(phoneCalls.streamedAt),
        gt(phoneCalls.createdAt, since),
      ),
    )
    .returning();
  return row;
}

// Batch calls ----------------------------------------------------------------------------------------------

export async function insertBatch(
  db: Db,
  batch: typeof batchCalls.$inferInsert,
  recipients: (typeof batchCallRecipients.$inferInsert)[],
): Promise<BatchCallRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(batchCalls).values(batch).returning();
    if (!row) throw new Error('the batch call was not inserted');
    for (let at = 0; at < recipients.length; at += 500)
      await tx.insert(batchCallRecipients).values(recipients.slice(at, at + 500));
    return row;
  });
}

export async function getWorkspaceBatch(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<BatchCallRow | undefined> {
  const [row] = await db
    .select()
    .from(batchCalls)
    .where(and(eq(batchCalls.workspaceId, workspaceId), eq(batchCalls.id, id)));
  return row;
}

export async function listWorkspaceBatches(
  db: Db,
  workspaceId: string,
  limit: number,
  after: BatchCallRow | undefined,
): Promise<BatchCallRow[]> {
  const conditions = [eq(batchCalls.workspaceId, workspaceId)];
  if (after)
    conditions.push(
      or(
        lt(batchCalls.createdAt, after.createdAt),
        and(eq(batchCalls.createdAt, after.createdAt), lt(batchCalls.id, after.id)),
      ) as SQL,
    );
  return db
    .select()
    .from(batchCalls)
    .where(and(...conditions))
    .orderBy(desc(batchCalls.createdAt), desc(batchCalls.id))
    .limit(limit + 1);
}

export async function updateBatch(
  db: Db,
  id: string,
  changes: Partial<typeof batchCalls.$inferInsert>,
): Promise<BatchCallRow | undefined> {
  const [row] = await db.update(batchCalls).set(changes).where(eq(batchCalls.id, id)).returning();
  return row;
}

export async function deleteBatchRow(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(batchCalls)
    .where(and(eq(batchCalls.workspaceId, workspaceId), eq(batchCalls.id, id)))
    .returning({ id: batchCalls.id });
  return rows.length > 0;
}

export type RecipientWithCall = BatchCallRecipientRow & { call: PhoneCallRow | null };

/** A batch's recipients in their order, each with its call (once placed). */
export async function recipientsOf(db: Db, batchIds: string[]): Promise<RecipientWithCall[]> {
  if (batchIds.length === 0) return [];
  const rows = await db
    .select()
    .from(batchCallRecipients)
    .leftJoin(phoneCalls, eq(phoneCalls.id, batchCallRecipients.callId))
    .where(inArray(batchCallRecipients.batchId, batchIds))
    .orderBy(asc(batchCallRecipients.batchId), asc(batchCallRecipients.position));
  return rows.map((row) => ({ ...row.batch_call_recipients, call: row.phone_calls }));
}

export async function updateRecipient(
  db: Db,
  id: string,
  changes: Partial<typeof batchCallRecipients.$inferInsert>,
): Promise<void> {
  await db.update(batchCallRecipients).set(changes).where(eq(batchCallRecipients.id, id));
}

/** Recipients in `from` statuses move to `to` (cancel: pending → cancelled; retry: failed → pending). */
export async function moveRecipients(
  db: Db,
  batchId: string,
  from: BatchCallRecipientRow['status'][],
  to: BatchCallRecipientRow['status'],
  now: Date,
): Promise<number> {
  const rows = await db
    .update(batchCallRecipients)
    .set({ status: to, updatedAt: now, ...(to === 'pending' ? { callId: null, error: null } : {}) })
    .where(and(eq(batchCallRecipients.batchId, batchId), inArray(batchCallRecipients.status, from)))
    .returning({ id: batchCallRecipients.id });
  return rows.length;
}

/** Batches whose time has come and that still have calls to place or follow. */
export function dueBatches(db: Db, now: Date): Promise<BatchCallRow[]> {
  return db
    .select()
    .from(batchCalls)
    .where(and(inArray(batchCalls.status, ['pending', 'in_progress']), lte(batchCalls.scheduledAt, now)))
    .orderBy(asc(batchCalls.scheduledAt))
    .limit(100);
}

/** The workspace's plan (its concurrent conversations bound a batch's calls at once). */
export async function workspaceTier(db: Db, workspaceId: string): Promise<SubscriptionTier | undefined> {
  const [row] = await db
    .select({ tier: workspaces.tier })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row?.tier;
}
