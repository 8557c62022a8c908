import { and, desc, eq, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import {
  type WebhookDeliveryRow,
  type WebhookRow,
  webhookDeliveries,
  webhookSealingKeys,
  webhooks,
} from './webhooks.tables';

/** How many attempts of a webhook's log are kept, and for how long. */
export const DELIVERY_LOG_KEEP = 100;
export const DELIVERY_LOG_DAYS = 30;

export async function insertWebhook(db: Db, row: typeof webhooks.$inferInsert): Promise<WebhookRow> {
  const [inserted] = await db.insert(webhooks).values(row).returning();
  if (!inserted) throw new Error('insert into webhooks returned no row');
  return inserted;
}

/** The workspace's webhooks, oldest first (the order they were added in). */
export function listWorkspaceWebhooks(db: Db, workspaceId: string): Promise<WebhookRow[]> {
  return db
    .select()
    .from(webhooks)
    .where(eq(webhooks.workspaceId, workspaceId))
    .orderBy(webhooks.createdAt, webhooks.id);
}

/** The webhooks of a workspace that deliver: neither switched off by an admin nor by the server. */
export function listActiveWebhooks(db: Db, workspaceId: string): Promise<WebhookRow[]> {
  return db
    .select()
    .from(webhooks)
    .where(
      and(
        eq(webhooks.workspaceId, workspaceId),
        isNull(webhooks.disabledAt),
        isNull(webhooks.autoDisabledAt),
      ),
    );
}

/** A webhook of this workspace (another workspace's reads as absent). */
export async function getWorkspaceWebhook(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<WebhookRow | undefined> {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.id, id)));
  return row;
}

export async function getWebhook(db: Db, id: string): Promise<WebhookRow | undefined> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
  return row;
}

export async function updateWebhookRow(
  db: Db,
  id: string,
  set: Partial<typeof webhooks.$inferInsert>,
): Promise<WebhookRow | undefined> {
  const [row] = await db.update(webhooks).set(set).where(eq(webhooks.id, id)).returning();
  return row;
}

export async function deleteWebhookRow(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(webhooks)
    .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.id, id)))
    .returning({ id: webhooks.id });
  return deleted.length > 0;
}

/** A delivery that reached its receiver: the failures in a row start again from zero. */
export async function noteDeliverySucceeded(db: Db, id: string): Promise<void> {
  await db.update(webhooks).set({ consecutiveFailures: 0 }).where(eq(webhooks.id, id));
}

/** An attempt that failed: its code and time are the webhook's most recent failure. */
export async function noteAttemptFailed(db: Db, id: string, code: number | null, at: Date): Promise<void> {
  await db.update(webhooks).set({ lastFailureCode: code, lastFailureAt: at }).where(eq(webhooks.id, id));
}

/**
 * A delivery that failed for good: one more failure in a row. Switches the webhook off when that makes
 * `threshold`; answers whether this call did (so it is announced once).
 */
export async function noteDeliveryFailed(
  db: Db,
  id: string,
  threshold: number,
  at: Date,
): Promise<{ failures: number; autoDisabled: boolean } | undefined> {
  const [row] = await db
    .update(webhooks)
    .set({ consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1` })
    .where(eq(webhooks.id, id))
    .returning({ failures: webhooks.consecutiveFailures });
  if (!row) return undefined;
  if (row.failures < threshold) return { failures: row.failures, autoDisabled: false };
  const disabled = await db
    .update(webhooks)
    .set({ autoDisabledAt: at })
    .where(and(eq(webhooks.id, id), isNull(webhooks.autoDisabledAt)))
    .returning({ id: webhooks.id });
  return { failures: row.failures, autoDisabled: disabled.length > 0 };
}

/** Adds an attempt to the webhook's log and drops what is past the log's keep (count and age). */
export async function insertDeliveryAttempt(
  db: Db,
  row: typeof webhookDeliveries.$inferInsert,
): Promise<void> {
  await db.insert(webhookDeliveries).values(row);
  const kept = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, row.webhookId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(DELIVERY_LOG_KEEP);
  await db
    .delete(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.webhookId, row.webhookId),
        or(
          lt(webhookDeliveries.createdAt, sql`now() - make_interval(days => ${DELIVERY_LOG_DAYS})`),
          notInArray(webhookDeliveries.id, kept),
        ),
      ),
    );
}

/** A webhook's log, newest first. */
export function listDeliveryAttempts(db: Db, webhookId: string): Promise<WebhookDeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, webhookId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(DELIVERY_LOG_KEEP);
}

/** The server's sealing key: `candidate` the first time, the stored one ever after (every process shares it). */
export async function ensureSealingKey(db: Db, candidate: string): Promise<string> {
  await db.insert(webhookSealingKeys).values({ id: 'webhook-secrets', key: candidate }).onConflictDoNothing();
  const [row] = await db
    .select()
    .from(webhookSealingKeys)
    .where(eq(webhookSealingKeys.id, 'webhook-secrets'));
  if (!row) throw new Error('the webhook sealing key could not be stored');
  return row.key;
}
