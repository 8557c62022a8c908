import { type SubscriptionTier, tierLimits } from '@parla/contracts';
import { and, eq, lt, sql } from 'drizzle-orm';
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
 * Takes `amount` credits before a generation runs (issue 4 "Credits"): refused with the public API's
 * `quota_exceeded` when the plan (or the API key's own limit) has fewer left. The workspace row is locked,
 * so concurrent requests cannot both spend the last credits.
 */
export async function reserveCredits(
  db: Db,
  input: { workspaceId: string; apiKeyId?: string | undefined; amount: number },
): Promise<Reservation> {
  return db.transaction(async (tx) => {
    const [workspace] = await tx
      .select()
      .from(workspaces)
      .where(eq(workspaces.id, input.workspaceId))
      .for('update');
    if (!workspace)
      throw new AppError('unauthorized', 'Your workspace no longer exists. Please sign in again.');
    const limit = tierLimits[workspace.tier].characterLimit;
    if (limit !== -1 && workspace.characterCount + input.amount > limit) {
      const remaining = Math.max(0, limit - workspace.characterCount);
      throw new AppError(
        'quota_exceeded',
        `This request exceeds your quota of ${limit}. You have ${remaining} credits remaining, while ${input.amount} credits are required for this request.`,
      );
    }
    if (input.apiKeyId) {
      const [key] = await tx.select().from(apiKeys).where(eq(apiKeys.id, input.apiKeyId)).for('update');
      if (key?.characterLimit != null && key.characterCount + input.amount > key.characterLimit) {
        const remaining = Math.max(0, key.characterLimit - key.characterCount);
        throw new AppError(
          'quota_exceeded',
          `This request exceeds the credit limit of this API key (${key.characterLimit}). It has ${remaining} credits remaining, while ${input.amount} credits are required for this request.`,
        );
      }
      await tx
        .update(apiKeys)
        .set({ characterCount: sql`${apiKeys.characterCount} + ${input.amount}` })
        .where(eq(apiKeys.id, input.apiKeyId));
    }
    await tx
      .update(workspaces)
      .set({ characterCount: workspace.characterCount + input.amount })
      .where(eq(workspaces.id, workspace.id));
    return {
      workspaceId: workspace.id,
      apiKeyId: input.apiKeyId,
      amount: input.amount,
      from: workspace.characterCount,
      to: workspace.characterCount + input.amount,
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

/**
 * Takes one of the plan's concurrent-request slots (accounts §9: free 2 … Business 15), or refuses with
 * 429 `too_many_concurrent_requests` and the public API's headers. Slots expire, so a crashed process
 * cannot hold them for good.
 */
export async function acquireConcurrencySlot(
  db: Db,
  input: { workspaceId: string; tier: SubscriptionTier; now: Date; ttlMs: number },
): Promise<string> {
  const maximum = tierLimits[input.tier].concurrency;
  return db.transaction(async (tx) => {
    await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.id, input.workspaceId))
      .for('update');
    await tx
      .delete(concurrencySlots)
      .where(
        and(eq(concurrencySlots.workspaceId, input.workspaceId), lt(concurrencySlots.expiresAt, input.now)),
      );
    const [{ current = 0 } = {}] = await tx
      .select({ current: sql<number>`count(*)::int` })
      .from(concurrencySlots)
      .where(eq(concurrencySlots.workspaceId, input.workspaceId));
    if (current >= maximum) {
      throw new AppError(
        'too_many_concurrent_requests',
        `Too many concurrent requests: your plan allows ${maximum} at a time. Wait for one to finish, or upgrade for more.`,
        {
          headers: {
            'current-concurrent-requests': String(current),
            'maximum-concurrent-requests': String(maximum),
          },
        },
      );
    }
    const id = newId();
    await tx
      .insert(concurrencySlots)
      .values({ id, workspaceId: input.workspaceId, expiresAt: new Date(input.now.getTime() + input.ttlMs) });
    return id;
  });
}

export async function releaseConcurrencySlot(db: Db, slotId: string): Promise<void> {
  await db.delete(concurrencySlots).where(eq(concurrencySlots.id, slotId));
}
