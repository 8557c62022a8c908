import {
  canUseCharacterExtension,
  isBillingBlocked,
  type SubscriptionStatus,
  type SubscriptionTier,
  tierLimits,
} from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { creditsRunningLow } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import { countKeyCredits } from '../api-keys';
import { lockWorkspace } from '../workspaces';
import {
  addSettled,
  balanceOf,
  deleteSlot,
  findQuotaRow,
  findUnrefundedCharge,
  insertSlot,
  type LedgerInput,
  type QuotaRow,
  readSpendRow,
  type SlotInput,
  takeAbandonedSlots,
  writeRefund,
  writeSpend,
} from './credits.store';

/**
 * Takes the workspace's lock, then reads what a spend checks: the lock first and the read after it, since
 * a read that waited for the lock in the same statement would see the balance as it was before the wait
 * (PostgreSQL re-reads only the locked row) and two spends would both pass.
 */
async function lockedSpendRow(tx: Db, workspaceId: string, apiKeyId: string | undefined) {
  if (!(await lockWorkspace(tx, workspaceId))) return null;
  return readSpendRow(tx, workspaceId, apiKeyId);
}

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

function toQuotaState(row: QuotaRow): QuotaState {
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
  const row = await findQuotaRow(db, workspaceId);
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
export type ChargeInput = LedgerInput;

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
 * concurrent requests from both taking the last slot or spending the last credits. The slot row holds the
 * charge under a lease of `leaseMs` that the caller's process renews (generation-leases.ts): if the process
 * dies, the row is swept once the lease runs out, and the credits come back (issue 16).
 *
 * With `withinSlotId` (a generation of a realtime socket, which holds a slot for its life) the
 * generation takes no place of its own: its row holds the credits under a lease, and is not counted.
 */
export async function openGeneration(
  deps: SpendDeps,
  input: ChargeInput & { leaseMs: number; withinSlotId?: string | undefined },
): Promise<GenerationHold> {
  const slotId = newId();
  const reservation = await spend(deps, input, {
    id: slotId,
    leaseMs: input.leaseMs,
    withinSlotId: input.withinSlotId,
  });
  return { slotId, reservation };
}

/**
 * Takes one of the plan's concurrency places for a realtime socket, for as long as it is open (issue 26
 * item 9: sockets count against the plan as requests do, across every process, since the rows are in
 * the database), or refuses with 429 `too_many_concurrent_requests`. The row holds no credits; its lease
 * is renewed by the socket's process, so a crash frees the place once the lease runs out. Freed by
 * `refundGeneration` (nothing to refund).
 */
export async function takeSocketSlot(
  db: Db,
  input: { workspaceId: string; leaseMs: number },
): Promise<string> {
  const slotId = newId();
  await db.transaction(async (tx) => {
    const row = await lockedSpendRow(tx, input.workspaceId, undefined);
    if (!row) throw new AppError('unauthorized', 'Your workspace no longer exists. Please sign in again.');
    const limit = tierLimits[row.tier].concurrency;
    if (row.liveSlots >= limit) throw tooManyConcurrent(row.liveSlots, limit, 'socket');
    await insertSlot(tx, input.workspaceId, { id: slotId, leaseMs: input.leaseMs });
  });
  return slotId;
}

/**
 * The public API's 429 at the plan's concurrency limit (accounts §9), with its headers. A socket counts
 * for as long as it is open: its message says so.
 */
function tooManyConcurrent(live: number, limit: number, what: 'request' | 'socket'): AppError {
  const why =
    what === 'socket'
      ? 'an open realtime socket (text-to-speech input stream or live transcription) holds one for as long as it is open. Close one'
      : 'Wait for one to finish';
  return new AppError(
    'too_many_concurrent_requests',
    `Too many concurrent requests: your plan allows ${limit} at a time${what === 'socket' ? ', and ' : '. '}${why}, or upgrade for more.`,
    {
      headers: {
        'current-concurrent-requests': String(live),
        'maximum-concurrent-requests': String(limit),
      },
    },
  );
}

/**
 * Charges credits for work that holds no concurrency slot (and for tests of the quota under load): the
 * same checks as a generation, under the same lock, in one transaction with its ledger row.
 */
export async function chargeCredits(deps: SpendDeps, input: ChargeInput): Promise<Reservation> {
  return spend(deps, input, undefined);
}

/** What a spend needs: the database, and the events it publishes (credits running low). */
export interface SpendDeps {
  db: Db;
  events: EventBus;
}

/**
 * The one way credits are spent: in one transaction under the workspace's row lock, the slot check (when
 * a slot is asked for), the payment and quota checks, then every write at once — the slot, the key's
 * count, the ledger row and the workspace's count. Two statements (a read under the lock, then the
 * writes): the lock, and on PGlite the embedded database every other request waits for, is held as
 * briefly as it can be.
 */
async function spend(deps: SpendDeps, input: ChargeInput, slot: SlotInput | undefined): Promise<Reservation> {
  return deps.events.transaction(async (tx, events) => {
    const row = await lockedSpendRow(tx, input.workspaceId, input.apiKeyId);
    if (!row) throw new AppError('unauthorized', 'Your workspace no longer exists. Please sign in again.');
    const limits = tierLimits[row.tier];
    if (slot && !slot.withinSlotId && row.liveSlots >= limits.concurrency) {
      throw tooManyConcurrent(row.liveSlots, limits.concurrency, 'request');
    }
    const state = toQuotaState(row);
    assertQuota(state, input.amount);
    assertKeyLimit(row, input.amount);
    const chargeId = newId();
    // Leases run on the database's clock, the one every process shares, from this moment (not from the
    // transaction's start, which may have waited for the lock). Expired slots are not deleted
    // here: their charges are refunded by the sweep (sweepAbandonedGenerations), which alone removes them.
    await writeSpend(tx, chargeId, input, slot);
    if (input.apiKeyId) await countKeyCredits(tx, input.apiKeyId, input.amount);
    // The spend that passes the low-credits mark tells whoever cares (the owner's bell), after the commit.
    const limit = effectiveCharacterLimit(state);
    if (crossesLowCredits(limit, state.used, state.used + input.amount)) {
      await events.publish(creditsRunningLow, {
        workspaceId: input.workspaceId,
        ownerId: row.ownerId,
        limit,
        used: state.used + input.amount,
      });
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

/** An API key's own credit limit; its count needs no lock of its own (its workspace's lock serialises it). */
function assertKeyLimit(row: { keyLimit: number | null; keyCount: number | null }, amount: number): void {
  if (row.keyLimit == null || (row.keyCount ?? 0) + amount <= row.keyLimit) return;
  const remaining = Math.max(0, row.keyLimit - (row.keyCount ?? 0));
  throw new AppError(
    'quota_exceeded',
    `This request exceeds the credit limit of this API key (${row.keyLimit}). It has ${remaining} credits remaining, while ${amount} credits are required for this request.`,
  );
}

/**
 * Settles a generation inside `tx`, the transaction that keeps its result: its slot row goes. False when
 * the row was gone already: the lease ran out and the sweep refunded the credits, so the result must not
 * be kept (the caller's transaction is rolled back).
 */
export async function settleGeneration(tx: Db, slotId: string): Promise<boolean> {
  return (await deleteSlot(tx, slotId)) !== null;
}

/**
 * Keeps `credits` more of a running generation's charge, whatever happens to the rest (a socket's speech,
 * sentence by sentence, as its audio is sent): a later refund, or the sweep after a crash, gives back only
 * what was not kept. False when the slot row is gone (its lease ran out and the sweep refunded it).
 */
export async function settleGenerationPart(db: Db, slotId: string, credits: number): Promise<boolean> {
  return addSettled(db, slotId, credits);
}

/**
 * Gives a failed generation's credits back (those not kept by `settleGenerationPart`) and frees its
 * slot, in one transaction. Whoever deletes the slot row refunds: the generation's own process here, or
 * the sweep after a crash — never both, and never after it was settled. A socket's slot, which holds no
 * credits, is freed the same way.
 */
export async function refundGeneration(db: Db, slotId: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const gone = await deleteSlot(tx, slotId);
    if (gone?.chargeId) await refundCharge(tx, gone.chargeId, now, gone.settled);
  });
}

/** Slots swept at once, in one transaction. */
const SWEEP_BATCH = 100;

/**
 * Refunds the generations whose process is gone (issue 16 "Credits survive crashes"): slot rows whose
 * lease ran out — or every slot, with `everything`, when this process alone uses the database (PGlite at
 * start: no other process can be running a generation). Each row is deleted and its charge refunded in
 * one transaction; rows another sweeper holds are skipped. Answers the refunds made.
 */
export async function sweepAbandonedGenerations(
  db: Db,
  options: { everything?: boolean; now?: Date; except?: readonly string[] } = {},
): Promise<{ slotId: string; workspaceId: string; amount: number }[]> {
  const now = options.now ?? new Date();
  const refunded: { slotId: string; workspaceId: string; amount: number }[] = [];
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      // This process's own live slots are never its sweep's, even if a stall let their lease run out.
      const gone = await takeAbandonedSlots(tx, {
        everything: options.everything,
        except: options.except,
        limit: SWEEP_BATCH,
      });
      // Workspace rows are updated in one order by every sweeper: two sweeps never wait on each other.
      gone.sort((x, y) => (x.workspaceId < y.workspaceId ? -1 : x.workspaceId > y.workspaceId ? 1 : 0));
      for (const row of gone) {
        const amount = row.chargeId ? await refundCharge(tx, row.chargeId, now, row.settled) : 0;
        refunded.push({ slotId: row.id, workspaceId: row.workspaceId, amount });
      }
      return gone.length;
    });
    if (batch < SWEEP_BATCH) return refunded;
  }
}

/**
 * Writes the refund of a charge: a ledger row tied to it, and the workspace's (and API key's) count back
 * down — all of it but the `kept` credits already delivered. A charge is refunded at most once, and not at
 * all once a period reset has cleared the count it was part of (a generation that ran across the reset;
 * giving it back would lend the new period credits). Answers the credits given back.
 */
async function refundCharge(tx: Db, chargeId: string, now: Date, kept = 0): Promise<number> {
  const charge = await findUnrefundedCharge(tx, chargeId);
  if (!charge || charge.resetSince) return 0;
  const amount = charge.amount - Math.min(kept, charge.amount);
  if (amount <= 0) return 0;
  const input = {
    workspaceId: charge.workspaceId,
    amount,
    apiKeyId: charge.apiKeyId ?? undefined,
    modelId: charge.modelId ?? undefined,
    voiceId: charge.voiceId ?? undefined,
    now,
  };
  await writeRefund(tx, newId(), chargeId, input);
  if (input.apiKeyId) await countKeyCredits(tx, input.apiKeyId, -input.amount);
  return amount;
}

/** The credits a workspace spent this period (accounts §3 character_count). */
export function creditsUsed(db: Db, workspaceId: string): Promise<number> {
  return balanceOf(db, workspaceId);
}
