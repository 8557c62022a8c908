import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { billingIdempotency } from './billing.tables';

export type IdempotencyRow = typeof billingIdempotency.$inferSelect;

/** Claims a key for a call about to run (its answer pending); false when the key is taken. */
export async function claimIdempotencyKey(
  db: Db,
  claim: { workspaceId: string; key: string; operation: string; requestHash: string },
): Promise<boolean> {
  const claimed = await db
    .insert(billingIdempotency)
    .values({ ...claim, response: { pending: true } })
    .onConflictDoNothing()
    .returning({ key: billingIdempotency.key });
  return claimed.length > 0;
}

export async function findIdempotencyRow(
  db: Db,
  workspaceId: string,
  key: string,
): Promise<IdempotencyRow | null> {
  const [row] = await db
    .select()
    .from(billingIdempotency)
    .where(and(eq(billingIdempotency.workspaceId, workspaceId), eq(billingIdempotency.key, key)));
  return row ?? null;
}

/** Keeps the answer of the call that claimed the key. */
export async function saveIdempotentResponse(
  db: Db,
  workspaceId: string,
  key: string,
  response: object,
): Promise<void> {
  await db
    .update(billingIdempotency)
    .set({ response })
    .where(and(eq(billingIdempotency.workspaceId, workspaceId), eq(billingIdempotency.key, key)));
}

/** Lets a key go (its call failed), so the call can be tried again. */
export async function releaseIdempotencyKey(db: Db, workspaceId: string, key: string): Promise<void> {
  await db
    .delete(billingIdempotency)
    .where(and(eq(billingIdempotency.workspaceId, workspaceId), eq(billingIdempotency.key, key)));
}
