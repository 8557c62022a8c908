import type { SubscriptionStatus, SubscriptionTier } from '@parla/contracts';
import { and, eq, gt, gte, inArray, lt, notExists, notInArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/client';
import { newId } from '../../platform/ids';
import { apiKeys } from '../api-keys/api-keys.tables';
import { billingSubscriptions } from '../billing/billing.tables';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { concurrencySlots, creditBalances, creditLedger } from './credits.tables';

/** The columns that decide whether a workspace may spend: its plan, payment status, count and extension. */
export interface QuotaRow {
  tier: SubscriptionTier;
  used: number;
  status: SubscriptionStatus | null;
  allowedToExtend: boolean | null;
  maxExtension: number | null;
}

/** The columns of a QuotaRow, for a select over workspaces joined with billing and the owner. */
const quotaColumns = {
  tier: workspaces.tier,
  used: sql<number>`coalesce(${creditBalances.used}, 0)`,
  status: sql<SubscriptionStatus | null>`${billingSubscriptions.status}`,
  allowedToExtend: users.allowedToExtendCharacterLimit,
  maxExtension: users.maxCharacterLimitExtension,
};

/** A workspace's quota row, without a lock; null when the workspace is gone. */
export async function findQuotaRow(db: Db, workspaceId: string): Promise<QuotaRow | null> {
  const [row] = await db
    .select(quotaColumns)
    .from(workspaces)
    .leftJoin(creditBalances, eq(creditBalances.workspaceId, workspaces.id))
    .leftJoin(billingSubscriptions, eq(billingSubscriptions.workspaceId, workspaces.id))
    .leftJoin(users, eq(users.id, workspaces.ownerId))
    .where(eq(workspaces.id, workspaceId));
  return row ?? null;
}

/** What a spend checks, read under the workspace's row lock: the quota, the live slots, the API key's count. */
export interface SpendRow extends QuotaRow {
  liveSlots: number;
  keyLimit: number | null;
  keyCount: number | null;
  ownerId: string;
}

/**
 * What a spend checks; null when the workspace is gone. Read it after taking the workspace's lock
 * (lockWorkspace), in a statement of its own, so that it sees the previous spend's balance.
 */
export async function readSpendRow(
  tx: Db,
  workspaceId: string,
  apiKeyId: string | undefined,
): Promise<SpendRow | null> {
  const [row] = await tx
    .select({
      ...quotaColumns,
      // Rows within another slot (a socket's generations) take no place of their own.
      liveSlots: sql<number>`(select count(*)::int from ${concurrencySlots} where ${concurrencySlots.workspaceId} = ${workspaces.id} and ${concurrencySlots.expiresAt} >= now() and ${concurrencySlots.withinSlotId} is null)`,
      keyLimit: apiKeys.characterLimit,
      keyCount: apiKeys.characterCount,
      ownerId: workspaces.ownerId,
    })
    .from(workspaces)
    .leftJoin(creditBalances, eq(creditBalances.workspaceId, workspaces.id))
    .leftJoin(billingSubscriptions, eq(billingSubscriptions.workspaceId, workspaces.id))
    .leftJoin(users, eq(users.id, workspaces.ownerId))
    .leftJoin(apiKeys, eq(apiKeys.id, apiKeyId ?? ''))
    .where(eq(workspaces.id, workspaceId));
  return row ?? null;
}

/** A ledger row's subject: whose credits, how many, for what. */
export interface LedgerInput {
  workspaceId: string;
  apiKeyId?: string | undefined;
  amount: number;
  now: Date;
  modelId?: string | undefined;
  voiceId?: string | undefined;
}

function ledgerInsert(id: string, kind: 'charge' | 'refund', input: LedgerInput, chargeId?: string) {
  return sql`insert into credit_ledger (id, workspace_id, kind, amount, charge_id, api_key_id, model_id, voice_id, created_at)
    values (${id}, ${input.workspaceId}, ${kind}, ${input.amount}, ${chargeId ?? null}, ${input.apiKeyId ?? null},
      ${input.modelId ?? null}, ${input.voiceId ?? null}, ${input.now})`;
}

/** A slot row to write: its id, its lease, and the slot it runs within (not counted then), if any. */
export interface SlotInput {
  id: string;
  leaseMs: number;
  withinSlotId?: string | undefined;
}

/**
 * Writes a spend in one statement: the slot (when one is taken, its lease on the database's clock from
 * this moment), the ledger row of the charge and the workspace's balance (the API key's count is the
 * api-keys module's, counted through its front door).
 */
export async function writeSpend(
  tx: Db,
  chargeId: string,
  input: LedgerInput,
  slot: SlotInput | undefined,
): Promise<void> {
  const slotWrites = slot
    ? sql`slot as (
          insert into concurrency_slots (id, workspace_id, charge_id, within_slot_id, expires_at)
          values (${slot.id}, ${input.workspaceId}, ${chargeId}, ${slot.withinSlotId ?? null}, clock_timestamp() + make_interval(secs => ${slot.leaseMs / 1000}))
        ), `
    : sql``;
  await tx.execute(sql`
      with ${slotWrites}ledger as (
        ${ledgerInsert(chargeId, 'charge', input)}
      )
      insert into credit_balances (workspace_id, used) values (${input.workspaceId}, ${input.amount})
      on conflict (workspace_id) do update set used = credit_balances.used + excluded.used`);
}

/** Writes a slot that holds no credits (a realtime socket's, for its life), its lease from this moment. */
export async function insertSlot(tx: Db, workspaceId: string, slot: SlotInput): Promise<void> {
  await tx.execute(sql`
    insert into concurrency_slots (id, workspace_id, within_slot_id, expires_at)
    values (${slot.id}, ${workspaceId}, ${slot.withinSlotId ?? null}, clock_timestamp() + make_interval(secs => ${slot.leaseMs / 1000}))`);
}

/** What a slot row held when it was deleted: its charge, and how much of it was kept already. */
export interface GoneSlot {
  chargeId: string | null;
  settled: number;
}

/** Deletes a slot row; answers what it held (null when it was gone already). */
export async function deleteSlot(db: Db, slotId: string): Promise<GoneSlot | null> {
  const [gone] = await db
    .delete(concurrencySlots)
    .where(eq(concurrencySlots.id, slotId))
    .returning({ chargeId: concurrencySlots.chargeId, settled: concurrencySlots.settled });
  return gone ?? null;
}

/** Adds `credits` to what a slot's charge keeps; false when the row is gone (refunded or swept). */
export async function addSettled(db: Db, slotId: string, credits: number): Promise<boolean> {
  const rows = await db
    .update(concurrencySlots)
    .set({ settled: sql`${concurrencySlots.settled} + ${credits}` })
    .where(eq(concurrencySlots.id, slotId))
    .returning({ id: concurrencySlots.id });
  return rows.length > 0;
}

/**
 * Deletes up to `limit` slot rows whose lease ran out (every row with `everything`), but those in `except`
 * and those another transaction holds; answers what they held.
 */
export async function takeAbandonedSlots(
  tx: Db,
  options: { everything?: boolean | undefined; except?: readonly string[] | undefined; limit: number },
): Promise<({ id: string; workspaceId: string } & GoneSlot)[]> {
  const mine = options.except?.length ? notInArray(concurrencySlots.id, [...options.except]) : undefined;
  const abandoned = tx
    .select({ id: concurrencySlots.id })
    .from(concurrencySlots)
    .where(and(options.everything ? undefined : lt(concurrencySlots.expiresAt, sql`now()`), mine))
    .orderBy(concurrencySlots.expiresAt)
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return tx.delete(concurrencySlots).where(inArray(concurrencySlots.id, abandoned)).returning({
    id: concurrencySlots.id,
    workspaceId: concurrencySlots.workspaceId,
    chargeId: concurrencySlots.chargeId,
    settled: concurrencySlots.settled,
  });
}

/** Pushes the lease of these slots one lease further, on the database's clock. */
export async function renewSlotLeases(db: Db, slotIds: string[], leaseMs: number): Promise<void> {
  await db
    .update(concurrencySlots)
    .set({ expiresAt: sql`clock_timestamp() + make_interval(secs => ${leaseMs / 1000})` })
    .where(inArray(concurrencySlots.id, slotIds));
}

/** A charge not refunded yet, and whether a period reset has cleared it since; null when there is none. */
export async function findUnrefundedCharge(
  tx: Db,
  chargeId: string,
): Promise<{
  workspaceId: string;
  amount: number;
  apiKeyId: string | null;
  modelId: string | null;
  voiceId: string | null;
  resetSince: boolean;
} | null> {
  const refunds = alias(creditLedger, 'refunds');
  const resets = alias(creditLedger, 'resets');
  const [charge] = await tx
    .select({
      workspaceId: creditLedger.workspaceId,
      amount: creditLedger.amount,
      apiKeyId: creditLedger.apiKeyId,
      modelId: creditLedger.modelId,
      voiceId: creditLedger.voiceId,
      // A period reset since the charge cleared the count it was part of: nothing is left to give back.
      resetSince: sql<boolean>`exists (${tx
        .select({ id: resets.id })
        .from(resets)
        .where(
          and(
            eq(resets.workspaceId, creditLedger.workspaceId),
            eq(resets.kind, 'reset'),
            gt(resets.createdAt, creditLedger.createdAt),
          ),
        )})`,
    })
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.id, chargeId),
        eq(creditLedger.kind, 'charge'),
        notExists(
          tx
            .select({ id: refunds.id })
            .from(refunds)
            .where(and(eq(refunds.chargeId, chargeId), eq(refunds.kind, 'refund'))),
        ),
      ),
    );
  return charge ?? null;
}

/** Writes a refund in one statement: its ledger row tied to the charge, the workspace's balance down. */
export async function writeRefund(
  tx: Db,
  refundId: string,
  chargeId: string,
  input: LedgerInput,
): Promise<void> {
  await tx.execute(sql`
    with ledger as (${ledgerInsert(refundId, 'refund', input, chargeId)})
    update credit_balances set used = greatest(0, used - ${input.amount})
    where workspace_id = ${input.workspaceId}`);
}

/** The charges and refunds of a workspace between `start` and `end` (the usage chart). */
export async function listLedgerUsage(
  db: Db,
  workspaceId: string,
  start: Date,
  end: Date,
): Promise<
  {
    kind: 'charge' | 'refund' | 'reset';
    amount: number;
    modelId: string | null;
    voiceId: string | null;
    createdAt: Date;
  }[]
> {
  return db
    .select({
      kind: creditLedger.kind,
      amount: creditLedger.amount,
      modelId: creditLedger.modelId,
      voiceId: creditLedger.voiceId,
      createdAt: creditLedger.createdAt,
    })
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.workspaceId, workspaceId),
        inArray(creditLedger.kind, ['charge', 'refund']),
        gte(creditLedger.createdAt, start),
        lt(creditLedger.createdAt, end),
      ),
    );
}

/**
 * Starts a new period (billing's `credits.period_started`): the balance back to 0 and a `reset` row in the
 * ledger with the count it cleared, so the count can still be explained.
 */
export async function resetBalance(tx: Db, workspaceId: string, at: Date): Promise<void> {
  await tx.execute(sql`
    with cleared as (
      delete from credit_balances where workspace_id = ${workspaceId} returning used
    )
    insert into credit_ledger (id, workspace_id, kind, amount, created_at)
    values (${newId()}, ${workspaceId}, 'reset', coalesce((select used from cleared), 0), ${at})`);
}

/** The credits a workspace spent this period (accounts §3 character_count). */
export async function balanceOf(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ used: creditBalances.used })
    .from(creditBalances)
    .where(eq(creditBalances.workspaceId, workspaceId));
  return row?.used ?? 0;
}
