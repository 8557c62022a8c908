import { createHash } from 'node:crypto';
import { isEnterpriseTier, type SubscriptionTier } from '@parla/contracts';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import {
  creditPeriodStarted,
  subscriptionChanged,
  subscriptionPaymentFailed,
} from '../../platform/events/catalog';
import type { EventBus, EventPublisher } from '../../platform/events/event-bus';
import type { BillingProvider, BillingProviderContext } from '../../providers/billing/billing-provider';
import { setWorkspaceTier as changeWorkspaceTier, lockWorkspace } from '../workspaces';
import {
  findUserEmail,
  linkProviderInvoice,
  loadBillingState,
  saveNextCreditReset,
  saveSubscription,
} from './billing.store';
import type { BillingState } from './billing.tables';
import {
  claimIdempotencyKey,
  findIdempotencyRow,
  releaseIdempotencyKey,
  saveIdempotentResponse,
} from './billing-idempotency.store';

/** What the billing services use. */
export interface BillingDeps {
  db: Db;
  /** Publishes what billing does (a failed renewal) to the modules that react to it. */
  events: EventBus;
  clock: Clock;
  /** null: payments are off on this server (BILLING_PROVIDER=none, the "isolated environment"). */
  provider: BillingProvider | null;
}

export interface BillingCaller {
  userId: string;
  workspaceId: string;
}

/**
 * A billing change in progress: its transaction, the locked workspace state and the caller's email. It is
 * also what a provider call sees, with the records the provider may write (in the same transaction).
 */
export interface BillingContext extends BillingProviderContext {
  tx: Db;
  /** Publishes events in `tx`: they are delivered once it commits. */
  events: EventPublisher;
  state: BillingState;
}

/** The context of a billing change in `tx` on `state` (locked by the caller). */
export function billingContext(
  tx: Db,
  events: EventPublisher,
  state: BillingState,
  now: Date,
  email: string | null,
): BillingContext {
  return {
    tx,
    events,
    state,
    now,
    email,
    records: {
      saveProviderIds: (ids) => saveSubscription(tx, state, ids, now),
      linkProviderInvoice: (invoiceId, link) => linkProviderInvoice(tx, invoiceId, link),
    },
  };
}

export function requireProvider(deps: BillingDeps): BillingProvider {
  if (!deps.provider) throw new AppError('feature_disabled', 'Payments are turned off on this server.');
  return deps.provider;
}

export function conflict(message: string): AppError {
  return new AppError('subscription_conflict', message);
}

/**
 * A renewal could not be charged (the subscription is past_due, accounts §4): published in the transaction
 * that records it, so the owner is told (under the bell) once it has committed.
 */
export async function notifyPaymentFailed(ctx: BillingContext): Promise<void> {
  await ctx.events.publish(subscriptionPaymentFailed, {
    workspaceId: ctx.state.workspace.id,
    ownerId: ctx.state.workspace.ownerId,
  });
}

/**
 * Takes the workspace's lock for the transaction, then reads its billing state: the lock first and the
 * read after it, since a read that waited for the lock in the same statement would see the subscription
 * and credit period as they were before the wait (PostgreSQL re-reads only the locked row).
 */
export async function lockBillingState(tx: Db, workspaceId: string): Promise<BillingState> {
  await lockWorkspace(tx, workspaceId);
  return loadBillingState(tx, workspaceId);
}

/** Runs `work` in a transaction with the workspace row locked, so billing calls on a workspace queue up. */
export async function withLockedState<T>(
  deps: BillingDeps,
  workspaceId: string,
  userId: string | null,
  work: (ctx: BillingContext) => Promise<T>,
): Promise<T> {
  const email = userId ? await findUserEmail(deps.db, userId) : null;
  return deps.events.transaction(async (tx, events) => {
    const state = await lockBillingState(tx, workspaceId);
    return work(billingContext(tx, events, state, deps.clock.now(), email));
  });
}

/**
 * The same idempotency key answers the same result and never does the work twice (issue 5): a row is
 * claimed before the work, holds the answer after it, and is let go when the work fails, so the call can
 * be tried again. A key reused for a different call or body is refused.
 */
export async function idempotent<T>(
  deps: BillingDeps,
  workspaceId: string,
  key: string | undefined,
  operation: string,
  body: unknown,
  work: () => Promise<T>,
): Promise<T> {
  if (!key) return work();
  const requestHash = createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
  if (!(await claimIdempotencyKey(deps.db, { workspaceId, key, operation, requestHash }))) {
    const row = await findIdempotencyRow(deps.db, workspaceId, key);
    if (!row) return idempotent(deps, workspaceId, key, operation, body, work);
    if (row.operation !== operation || row.requestHash !== requestHash) {
      throw new AppError('conflict', 'This idempotency key was already used for a different request.');
    }
    if ((row.response as { pending?: boolean }).pending === true) {
      throw new AppError('conflict', 'A request with this idempotency key is still in progress.');
    }
    return row.response as T;
  }
  try {
    const result = await work();
    await saveIdempotentResponse(deps.db, workspaceId, key, result as object);
    return result;
  } catch (error) {
    await releaseIdempotencyKey(deps.db, workspaceId, key);
    throw error;
  }
}

/** A change that needs a paid subscription by card (not enterprise, not free). */
export function requirePaidSubscription(state: BillingState): void {
  if (isEnterpriseTier(state.workspace.tier)) {
    throw conflict('Enterprise plans are changed through your account manager.');
  }
  if (state.workspace.tier === 'free' || !state.sub.billingPeriod || !state.sub.currentPeriodEnd) {
    throw conflict('You have no paid subscription to change: subscribe to a plan first.');
  }
}

/** What starting a credit period needs: the transaction and its publisher. */
interface InTransaction {
  tx: Db;
  events: EventPublisher;
}

/**
 * Starts a new credit period (accounts §3 character_count, next_character_count_reset_unix): the next
 * monthly reset at `next`, and `credits.period_started`, on which the credits module clears the count
 * (with a `reset` row in its ledger) and the voices module its add/edit count, in this transaction.
 */
export async function startCreditPeriod(
  ctx: InTransaction,
  state: BillingState,
  next: Date,
  now: Date,
): Promise<void> {
  await saveNextCreditReset(ctx.tx, state.workspace.id, next);
  await ctx.events.publish(creditPeriodStarted, { workspaceId: state.workspace.id, atUnixMs: now.getTime() });
  state.nextCreditResetAt = next;
}

/** Moves the next monthly credit reset without starting a period (credits used so far stay used). */
export async function setNextCreditReset(tx: Db, state: BillingState, next: Date): Promise<void> {
  await saveNextCreditReset(tx, state.workspace.id, next);
  state.nextCreditResetAt = next;
}

/**
 * Puts the workspace on `tier` (the workspaces module keeps it: seats and every generation read it) and,
 * when it changed, says so (`subscription.changed`) in the same transaction.
 */
export async function setWorkspaceTier(
  ctx: InTransaction,
  state: BillingState,
  tier: SubscriptionTier,
): Promise<void> {
  const previousTier = state.workspace.tier;
  await changeWorkspaceTier(ctx.tx, state.workspace.id, tier);
  state.workspace = { ...state.workspace, tier };
  if (previousTier !== tier)
    await ctx.events.publish(subscriptionChanged, { workspaceId: state.workspace.id, previousTier, tier });
}
