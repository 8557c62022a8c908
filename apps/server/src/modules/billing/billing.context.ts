import { createHash } from 'node:crypto';
import { isEnterpriseTier } from '@parla/contracts';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { subscriptionPaymentFailed } from '../../platform/events/catalog';
import type { EventBus, EventPublisher } from '../../platform/events/event-bus';
import type { BillingProvider, BillingProviderContext } from '../../providers/billing/billing-provider';
import {
  type BillingState,
  findUserEmail,
  linkProviderInvoice,
  loadBillingState,
  saveSubscription,
} from './billing.store';
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

/** Runs `work` in a transaction with the workspace row locked, so billing calls on a workspace queue up. */
export async function withLockedState<T>(
  deps: BillingDeps,
  workspaceId: string,
  userId: string | null,
  work: (ctx: BillingContext) => Promise<T>,
): Promise<T> {
  const email = userId ? await findUserEmail(deps.db, userId) : null;
  return deps.events.transaction(async (tx, events) => {
    const state = await loadBillingState(tx, workspaceId, { lock: true });
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
