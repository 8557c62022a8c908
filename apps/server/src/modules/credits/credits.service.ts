import { type SubscriptionTier, tierLimits } from '@parla/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { apiKeys } from '../api-keys/api-keys.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { concurrencySlots } from './credits.tables';

/** Credits taken from a workspace (and its API key) before a generation, to settle or refund after it. */
export interface Reservation {
  workspaceId: string;
  apiKeyId: string | undefined;
  amount: number;
  /** The workspace's character_count before and after (history item character_count_change_from/to). */
  from: number;
  to: number;
}

/**
 * Refuses with the public API's `quota_exceeded` when a workspace on `tier` that has spent `used` credits
 * this period has fewer than `amount` left (-1 is unlimited).
 */
export function assertQuota(tier: SubscriptionTier, used: number, amount: number): void {
  const limit = tierLimits[tier].characterLimit;
  if (limit === -1 || used + amount <= limit) return;
  const remaining = Math.max(0, limit - used);
  throw new AppError(
    'quota_exceeded',
    `This request exceeds your quota of ${limit}. You have ${remaining} credits remaining, while ${amount} credits are required for this request.`,
  );
}

/** A running generation's hold on its workspace: a concurrency slot and the credits reserved. */
export interface GenerationHold {
  slotId: string;
  reservation: Reservation;
}

/**
 * Opens a generation (issue 4 "Credits"), in one transaction under the workspace's row lock: takes one
 * of the plan's concurrent-request slots (accounts §9: free 2 … Business 15), or refuses with 429
 * `too_many_concurrent_requests` and the public API's headers; then reserves `amount` credits, or
 * refuses with `quota_exceeded` when the plan (or the API key's own limit) has fewer left. The lock keeps
 * concurrent requests from both taking the last slot or spending the last credits; slots expire, so a
 * crashed process cannot hold them for good.
 */
export async function openGeneration(
  db: Db,
  input: { workspaceId: string; apiKeyId?: string | undefined; amount: number; now: Date; ttlMs: number },
): Promise<GenerationHold> {
  // Two statements (a read under the lock, then every write at once): the lock, and on PGlite the
  // embedded database every other request waits for, is held as briefly as it can be.
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        tier: workspaces.tier,
        characterCount: workspaces.characterCount,
        liveSlots: sql<number>`(select count(*)::int from ${concurrencySlots} where ${concurrencySlots.workspaceId} = ${workspaces.id} and ${concurrencySlots.expiresAt} >= ${input.now})`,
        keyLimit: apiKeys.characterLimit,
        keyCount: apiKeys.characterCount,
      })
      .from(workspaces)
      .leftJoin(apiKeys, eq(apiKeys.id, input.apiKeyId ?? ''))
      .where(eq(workspaces.id, input.workspaceId))
      .for('update', { of: workspaces });
    if (!row) throw new AppError('unauthorized', 'Your workspace no longer exists. Please sign in again.');
    const limits = tierLimits[row.tier];
    if (row.liveSlots >= limits.concurrency) {
      throw new AppError(
        'too_many_concurrent_requests',
        `Too many concurrent requests: your plan allows ${limits.concurrency} at a time. Wait for one to finish, or upgrade for more.`,
        {
          headers: {
            'current-concurrent-requests': String(row.liveSlots),
            'maximum-concurrent-requests': String(limits.concurrency),
          },
        },
      );
    }
    assertQuota(row.tier, row.characterCount, input.amount);
    // A key's own count needs no lock of its own: the key's generations are its workspace's, serialised
    // by the workspace's lock.
    if (row.keyLimit != null && (row.keyCount ?? 0) + input.amount > row.keyLimit) {
      const remaining = Math.max(0, row.keyLimit - (row.keyCount ?? 0));
      throw new AppError(
        'quota_exceeded',
        `This request exceeds the credit limit of this API key (${row.keyLimit}). It has ${remaining} credits remaining, while ${input.amount} credits are required for this request.`,
      );
    }
    const slotId = newId();
    const expiresAt = new Date(input.now.getTime() + input.ttlMs);
    await tx.execute(sql`
      with expired as (
        delete from concurrency_slots where workspace_id = ${input.workspaceId} and expires_at < ${input.now}
      ), slot as (
        insert into concurrency_slots (id, workspace_id, expires_at) values (${slotId}, ${input.workspaceId}, ${expiresAt})
      ), api_key as (
        update api_keys set character_count = character_count + ${input.amount} where id = ${input.apiKeyId ?? null}
      )
      update workspaces set character_count = character_count + ${input.amount} where id = ${input.workspaceId}`);
    return {
      slotId,
      reservation: {
        workspaceId: input.workspaceId,
        apiKeyId: input.apiKeyId,
        amount: input.amount,
        from: row.characterCount,
        to: row.characterCount + input.amount,
      },
    };
  });
}

/** Gives reserved credits back: the generation failed, so nothing is charged. */
export async function refundCredits(db: Db, reservation: Reservation): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(workspaces)
      .set({ characterCount: sql`greatest(0, ${workspaces.characterCount} - ${reservation.amount})` })
      .where(eq(workspaces.id, reservation.workspaceId));
    if (reservation.apiKeyId) {
      await tx
        .update(apiKeys)
        .set({ characterCount: sql`greatest(0, ${apiKeys.characterCount} - ${reservation.amount})` })
        .where(eq(apiKeys.id, reservation.apiKeyId));
    }
  });
}

export async function releaseConcurrencySlot(db: Db, slotId: string): Promise<void> {
  await db.delete(concurrencySlots).where(eq(concurrencySlots.id, slotId));
}
