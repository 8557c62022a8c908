import {
  canUseCharacterExtension,
  isBillingBlocked,
  type SubscriptionStatus,
  type SubscriptionTier,
  tierLimits,
} from '@parla/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { apiKeys } from '../api-keys/api-keys.tables';
import { billingSubscriptions } from '../billing/billing.tables';
import { notifyUser } from '../notifications/notifications.service';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { concurrencySlots } from './credits.tables';

/** Credits taken from a workspace (and its API key) before a generation, to settle or refund after it. */
export interface Reservation {
  /** The ledger row of the charge. */
  chargeId: string;
  workspaceId: string;
  apiKeyId: string | undefined;
  amount: number;
  /** What the charge was for, so its refund is charted under the same model and voice. */
  modelId?: string | undefined;
  voiceId?: string | undefined;
  /** The workspace's character_count before and after (history item character_count_change_from/to). */
  from: number;
  to: number;
}

/** What decides whether a workspace may spend credits: its plan, its payment status and its extension. */
export interface QuotaState {
  tier: SubscriptionTier;
  status: SubscriptionStatus;
  /** Credits spent this period (character_count). */
  used: number;
  /** The owner's allowed extension (accounts §3 user metadata), counted only as §6 allows. */
  allowedToExtend: boolean;
  maxExtension: number | null;
}

/** The columns of a QuotaState, for a select over workspaces joined with billing and the owner. */
const quotaColumns = {
  tier: workspaces.tier,
  used: workspaces.characterCount,
  status: sql<SubscriptionStatus | null>`${billingSubscriptions.status}`,
  allowedToExtend: users.allowedToExtendCharacterLimit,
  maxExtension: users.maxCharacterLimitExtension,
};

function toQuotaState(row: {
  tier: SubscriptionTier;
  used: number;
  status: SubscriptionStatus | null;
  allowedToExtend: boolean | null;
  maxExtension: number | null;
}): QuotaState {
  return {
    tier: row.tier,
    used: row.used,
    status: row.status ?? (row.tier === 'free' ? 'free' : 'active'),
    allowedToExtend: row.allowedToExtend ?? false,
    maxExtension: row.maxExtension,
  };
}

/** Reads a workspace's quota state (no lock: for checks made again under the lock). */
export async function readQuotaState(db: Db, workspaceId: string): Promise<QuotaState> {
  const [row] = await db
    .select(quotaColumns)
    .from(workspaces)
    .leftJoin(billingSubscriptions, eq(billingSubscriptions.workspaceId, workspaces.id))
    .leftJoin(users, eq(users.id, workspaces.ownerId))
    .where(eq(workspaces.id, workspaceId));
  if (!row) throw new AppError('unauthorized', 'Your workspace no longer exists. Please sign in again.');
  return toQuotaState(row);
}

/** The credits a workspace may spend this period: the plan's, plus the extension when §6 allows it; -1 unlimited. */
export function effectiveCharacterLimit(state: QuotaState): number {
  const limit = tierLimits[state.tier].characterLimit;
  if (limit === -1) return -1;
  const extend = canUseCharacterExtension({
    tier: state.tier,
    status: state.status,
    allowedToExtend: state.allowedToExtend,
  });
  return extend ? limit + (state.maxExtension ?? 0) : limit;
}

/**
 * Refuses a spend of `amount` credits: with `payment_required` while the subscription has a payment
 * problem (accounts §4: incomplete, past_due, free_disabled; never enterprise), and with the public API's
 * `quota_exceeded` when fewer credits are left.
 */
export function assertQuota(state: QuotaState, amount: number): void {
  if (isBillingBlocked(state.tier, state.status)) {
    const why =
      state.status === 'past_due'
        ? 'The last payment of your subscription failed.'
        : state.status === 'incomplete'
          ? 'The first payment of your subscription has not gone through.'
          : 'Your subscription is disabled.';
    throw new AppError(
      'payment_required',
      `${why} Pay the open invoice or update your payment method on the subscription page to continue.`,
    );
  }
  const limit = effectiveCharacterLimit(state);
  if (limit === -1 || state.used + amount <= limit) return;
  const remaining = Math.max(0, limit - state.used);
  throw new AppError(
    'quota_exceeded',
    `This request exceeds your quota of ${limit}. You have ${remaining} credits remaining, while ${amount} credits are required for this request.`,
  );
}

/** What a charge is for, recorded on its ledger row (the usage chart groups by these). */
export interface ChargeInput {
  workspaceId: string;
  apiKeyId?: string | undefined;
  amount: number;
  now: Date;
  modelId?: string | undefined;
  voiceId?: string | undefined;
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
  input: ChargeInput & { ttlMs: number },
): Promise<GenerationHold> {
  const slotId = newId();
  const reservation = await spend(db, input, { id: slotId, ttlMs: input.ttlMs });
  return { slotId, reservation };
}

/**
 * Charges credits for work that holds no concurrency slot (and for tests of the quota under load): the
 * same checks as a generation, under the same lock, in one transaction with its ledger row.
 */
export async function chargeCredits(db: Db, input: ChargeInput): Promise<Reservation> {
  return spend(db, input, undefined);
}

/**
 * The one way credits are spent: in one transaction under the workspace's row lock, the slot check (when
 * a slot is asked for), the payment and quota checks, then every write at once — the slot, the key's
 * count, the ledger row and the workspace's count. Two statements (a read under the lock, then the
 * writes): the lock, and on PGlite the embedded database every other request waits for, is held as
 * briefly as it can be.
 */
async function spend(
  db: Db,
  input: ChargeInput,
  slot: { id: string; ttlMs: number } | undefined,
): Promise<Reservation> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        ...quotaColumns,
        liveSlots: sql<number>`(select count(*)::int from ${concurrencySlots} where ${concurrencySlots.workspaceId} = ${workspaces.id} and ${concurrencySlots.expiresAt} >= ${input.now})`,
        keyLimit: apiKeys.characterLimit,
        keyCount: apiKeys.characterCount,
        ownerId: workspaces.ownerId,
      })
      .from(workspaces)
      .leftJoin(billingSubscriptions, eq(billingSubscriptions.workspaceId, workspaces.id))
      .leftJoin(users, eq(users.id, workspaces.ownerId))
      .leftJoin(apiKeys, eq(apiKeys.id, input.apiKeyId ?? ''))
      .where(eq(workspaces.id, input.workspaceId))
      .for('update', { of: workspaces });
    if (!row) throw new AppError('unauthorized', 'Your workspace no longer exists. Please sign in again.');
    const limits = tierLimits[row.tier];
    if (slot && row.liveSlots >= limits.concurrency) {
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
    const state = toQuotaState(row);
    assertQuota(state, input.amount);
    assertKeyLimit(row, input.amount);
    const chargeId = newId();
    const slotWrites = slot
      ? sql`expired as (
          delete from concurrency_slots where workspace_id = ${input.workspaceId} and expires_at < ${input.now}
        ), slot as (
          insert into concurrency_slots (id, workspace_id, expires_at)
          values (${slot.id}, ${input.workspaceId}, ${new Date(input.now.getTime() + slot.ttlMs)})
        ), `
      : sql``;
    await tx.execute(sql`
      with ${slotWrites}api_key as (
        update api_keys set character_count = character_count + ${input.amount} where id = ${input.apiKeyId ?? null}
      ), ledger as (
        ${ledgerInsert(chargeId, 'charge', input)}
      )
      update workspaces set character_count = character_count + ${input.amount} where id = ${input.workspaceId}`);
    // A third statement only for the spend that passes the low-credits mark.
    const limit = effectiveCharacterLimit(state);
    if (crossesLowCredits(limit, state.used, state.used + input.amount)) {
      await notifyLowCredits(tx, row.ownerId, limit, state.used + input.amount);
    }
    return {
      chargeId,
      workspaceId: input.workspaceId,
      apiKeyId: input.apiKeyId,
      amount: input.amount,
      modelId: input.modelId,
      voiceId: input.voiceId,
      from: state.used,
      to: state.used + input.amount,
    };
  });
}

/** Parla: the share of a period's credits after which the owner is told that credits run low. */
export const LOW_CREDITS_SHARE = 0.9;

/** Whether a spend from `from` to `to` credits passes LOW_CREDITS_SHARE of the limit (never when unlimited). */
export function crossesLowCredits(limit: number, from: number, to: number): boolean {
  if (limit <= 0) return false;
  const mark = limit * LOW_CREDITS_SHARE;
  return from < mark && to >= mark;
}

/** Tells the workspace's owner under the bell when a spend passes the mark (so about once a period). */
async function notifyLowCredits(db: Db, ownerId: string, limit: number, used: number): Promise<void> {
  const left = Math.max(0, limit - used);
  await notifyUser(db, ownerId, {
    severity: 'warning',
    title: 'Your credits are running low',
    description: `${left.toLocaleString('en-US')} of ${limit.toLocaleString('en-US')} credits are left this period. Upgrade your plan for more, or wait for the monthly reset.`,
    link: '/app/subscription',
  });
}

/** An API key's own credit limit; its count needs no lock of its own (its workspace's lock serialises it). */
function assertKeyLimit(row: { keyLimit: number | null; keyCount: number | null }, amount: number): void {
  if (row.keyLimit == null || (row.keyCount ?? 0) + amount <= row.keyLimit) return;
  const remaining = Math.max(0, row.keyLimit - (row.keyCount ?? 0));
  throw new AppError(
    'quota_exceeded',
    `This request exceeds the credit limit of this API key (${row.keyLimit}). It has ${remaining} credits remaining, while ${amount} credits are required for this request.`,
  );
}

function ledgerInsert(id: string, kind: 'charge' | 'refund', input: ChargeInput, chargeId?: string) {
  return sql`insert into credit_ledger (id, workspace_id, kind, amount, charge_id, api_key_id, model_id, voice_id, created_at)
    values (${id}, ${input.workspaceId}, ${kind}, ${input.amount}, ${chargeId ?? null}, ${input.apiKeyId ?? null},
      ${input.modelId ?? null}, ${input.voiceId ?? null}, ${input.now})`;
}

/** Gives reserved credits back: the generation failed, so nothing is charged. */
export async function refundCredits(db: Db, reservation: Reservation, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(ledgerInsert(newId(), 'refund', { ...reservation, now }, reservation.chargeId));
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
