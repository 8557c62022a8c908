import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { billingSessions, type SessionRow, type StoredCard, type StoredDiscount } from './billing.tables';

/** Keeps a new hosted session. */
export async function insertSession(
  db: Db,
  values: typeof billingSessions.$inferInsert,
): Promise<SessionRow> {
  const [session] = await db.insert(billingSessions).values(values).returning();
  if (!session) throw new Error('session insert returned nothing');
  return session;
}

/** A hosted session by id, whatever its state (null when there is none); `lock` locks its row. */
export async function findSessionRow(
  db: Db,
  sessionId: string,
  options: { lock?: boolean } = {},
): Promise<SessionRow | null> {
  const query = db.select().from(billingSessions).where(eq(billingSessions.id, sessionId));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** A declined step: the page is open again and shows why. */
export async function recordSessionDecline(db: Db, sessionId: string, message: string): Promise<void> {
  await db
    .update(billingSessions)
    .set({ lastError: message, status: 'open', pendingCard: null })
    .where(eq(billingSessions.id, sessionId));
}

/** A card waiting for its second step (requires_authentication). */
export async function holdSessionCard(db: Db, sessionId: string, card: StoredCard): Promise<void> {
  await db
    .update(billingSessions)
    .set({ status: 'requires_action', pendingCard: card, lastError: null })
    .where(eq(billingSessions.id, sessionId));
}

export async function completeSessionRow(db: Db, sessionId: string): Promise<void> {
  await db
    .update(billingSessions)
    .set({ status: 'complete', pendingCard: null, lastError: null })
    .where(eq(billingSessions.id, sessionId));
}

/** Ties a checkout to the first invoice its declined payment left open. */
export async function setSessionInvoice(db: Db, sessionId: string, invoiceId: string): Promise<void> {
  await db.update(billingSessions).set({ invoiceId }).where(eq(billingSessions.id, sessionId));
}

/** Expires a workspace's checkouts still open (a plan was set another way). */
export async function expireOpenCheckouts(db: Db, workspaceId: string): Promise<void> {
  await db
    .update(billingSessions)
    .set({ status: 'expired' })
    .where(
      and(
        eq(billingSessions.workspaceId, workspaceId),
        eq(billingSessions.kind, 'checkout'),
        sql`${billingSessions.status} in ('open', 'requires_action')`,
      ),
    );
}

/** Expires every open session whose time ran out. */
export async function expireLapsedSessions(db: Db, now: Date): Promise<void> {
  await db
    .update(billingSessions)
    .set({ status: 'expired' })
    .where(
      and(sql`${billingSessions.status} in ('open', 'requires_action')`, lte(billingSessions.expiresAt, now)),
    );
}

/** The promo of the checkout whose first invoice this is, if any. */
export async function findCheckoutDiscountOfInvoice(
  db: Db,
  invoiceId: string,
): Promise<(StoredDiscount & { description: string }) | null> {
  const [session] = await db
    .select({ discount: billingSessions.discount })
    .from(billingSessions)
    .where(eq(billingSessions.invoiceId, invoiceId));
  return session?.discount ?? null;
}
