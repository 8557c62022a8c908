import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type PhoneCallRow, type PhoneNumberRow, phoneCalls, phoneNumbers } from './telephony.tables';

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
