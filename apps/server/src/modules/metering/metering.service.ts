import {
  formatNeedsTier,
  type OutputFormat,
  type SubscriptionTier,
  tierDisplayNames,
} from '@parla/contracts';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { RequestCaller } from '../../platform/auth-guard';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { generationCompleted, generationStarted } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import type { Storage } from '../../platform/storage/storage';
import type { GenerationLeases } from '../credits';
import {
  assertQuota,
  creditsUsed,
  openGeneration,
  type Reservation,
  readQuotaState,
  refundGeneration,
  settleGeneration,
  settleGenerationPart,
  takeSocketSlot,
} from '../credits';
import { type HistoryItemInsert, recordHistoryItem } from '../history';

/*
 * Metering (issue 17 item 3): the one way anything that costs credits runs. A capability says what it is
 * about to do — how many credits, under which model (and voice) — and metering checks the plan, takes a
 * concurrency slot and reserves the credits under this process's lease (issue 16: a crash refunds them),
 * then settles them in the transaction that keeps the result (the history item), or refunds them on any
 * failure. Text to speech, dialogue and speech to speech run through it; so will every later capability.
 */

/** What metering needs from the app. */
export interface MeteringDeps {
  db: Db;
  /** The domain events (a spend past 90% of the credits is one). */
  events: EventBus;
  clock: Clock;
  logger: Logger;
  /** This process's leases on the generations it runs. */
  leases: GenerationLeases;
}

/** The kinds of generation (the catalogue's `generation.started`). */
export type GenerationKind = z.infer<typeof generationStarted.payload>['kind'];

/** Who a generation is for (a signed-in session or an API key), and the request it answers. */
export type MeteredCaller = RequestCaller;

/** What a generation is and costs: credits, under a model and a voice (the usage chart groups by them). */
export interface MeteredWork {
  kind: GenerationKind;
  credits: number;
  modelId: string;
  voiceId?: string | undefined;
}

/** 403 `output_format_not_allowed` when the plan's tier may not have this output format. */
export function assertFormatAllowed(outputFormat: OutputFormat, tier: SubscriptionTier): void {
  const neededTier = formatNeedsTier(outputFormat, tier);
  if (neededTier) {
    throw new AppError(
      'output_format_not_allowed',
      `The output format ${outputFormat} needs the ${tierDisplayNames[neededTier]} plan or higher.`,
    );
  }
}

/**
 * Refused at once when the plan has too few credits left (checked again under the lock when they are
 * reserved): a stream starts its work while they are reserved, and that work is not done for nothing.
 * The plan's tier must allow the output format too.
 */
export async function assertAffordable(
  deps: Pick<MeteringDeps, 'db'>,
  caller: Pick<MeteredCaller, 'workspaceId'>,
  credits: number,
  outputFormat: OutputFormat,
): Promise<void> {
  const quota = await readQuotaState(deps.db, caller.workspaceId);
  assertQuota(quota, credits);
  assertFormatAllowed(outputFormat, quota.tier);
}

/**
 * A running generation's budget: its concurrency slot and its reserved credits, held under this process's
 * lease until it is settled or refunded (issue 16: a crash refunds it once the lease runs out).
 */
export interface Budget {
  reservation: Reservation;
  /**
   * Settles inside `tx`, the transaction that keeps the generation's result (its history item), so the
   * credits are kept exactly when the result is. Throws when the lease ran out meanwhile and the credits
   * were refunded: the result is then not kept either.
   */
  settleIn(tx: Db): Promise<void>;
  /** Settles a generation that keeps nothing (enable_logging=false). */
  settle(): Promise<void>;
  /**
   * Keeps `credits` more of the reservation now, for a part of the result that was delivered (a
   * socket's sentence whose audio went out): however the budget ends after — a refund, or the sweep
   * after a crash — those are not given back. At most the reservation in all. Throws as `settleIn` does
   * when the lease ran out meanwhile (the sweep refunded what was not kept by then).
   */
  settlePart(credits: number): Promise<void>;
  /**
   * Gives back the credits not kept (all of them unless `settlePart` kept some) and frees the slot;
   * nothing happens once it was settled or swept.
   */
  refund(): Promise<void>;
  /**
   * Tells that the generation completed (`generation.completed`), once its settlement has committed:
   * `settle()` does it, and `recordGeneration` with the history item's id.
   */
  completed(historyItemId: string | null): Promise<void>;
}

/** What `openBudget` may be told: the realtime socket whose place the generation runs in. */
export interface BudgetOptions {
  /**
   * The socket holds a place of the plan's concurrency for its life; its generations take none of their
   * own (their credits are reserved and leased as any generation's).
   */
  within?: SocketSlot | undefined;
}

/**
 * Takes a concurrency slot (or 429 `too_many_concurrent_requests` with the public API's headers; none
 * `within` a socket's) and reserves the credits (or `quota_exceeded`, `payment_required`), under this
 * process's lease; then tells the modules that care that the generation started (`generation.started`:
 * onboarding's first steps).
 */
export async function openBudget(
  deps: Pick<MeteringDeps, 'db' | 'events' | 'clock' | 'leases'> & { logger?: Logger | undefined },
  caller: MeteredCaller,
  work: MeteredWork,
  options: BudgetOptions = {},
): Promise<Budget> {
  const { slotId, reservation } = await openGeneration(deps, {
    workspaceId: caller.workspaceId,
    apiKeyId: caller.apiKeyId,
    amount: work.credits,
    now: deps.clock.now(),
    leaseMs: deps.leases.leaseMs,
    modelId: work.modelId,
    voiceId: work.voiceId,
    withinSlotId: options.within?.id,
  });
  deps.leases.hold(slotId);
  const refund = async () => {
    deps.leases.release(slotId);
    await refundGeneration(deps.db, slotId, deps.clock.now());
  };
  try {
    await deps.events.publish(generationStarted, {
      userId: caller.userId,
      workspaceId: caller.workspaceId,
      kind: work.kind,
    });
  } catch (error) {
    await refund();
    throw error;
  }
  const settleIn = async (tx: Db) => {
    deps.leases.release(slotId);
    if (!(await settleGeneration(tx, slotId))) {
      throw new AppError(
        'service_unavailable',
        'This generation took longer than its lease and was cancelled. Nothing was charged; please try again.',
      );
    }
  };
  // After the commit: a failure to tell never undoes a generation that was kept (it is logged).
  const completed = async (historyItemId: string | null) => {
    await deps.events
      .publish(generationCompleted, {
        userId: caller.userId,
        workspaceId: caller.workspaceId,
        kind: work.kind,
        credits: work.credits,
        modelId: work.modelId,
        historyItemId,
      })
      .catch((err: unknown) => deps.logger?.warn({ err }, 'could not publish generation.completed'));
  };
  let kept = 0;
  const settlePart = async (credits: number) => {
    const part = Math.min(Math.max(0, Math.floor(credits)), reservation.amount - kept);
    if (part <= 0) return;
    if (!(await settleGenerationPart(deps.db, slotId, part))) {
      deps.leases.release(slotId);
      throw new AppError(
        'service_unavailable',
        'This generation took longer than its lease and was cancelled. What was not delivered was not charged; please try again.',
      );
    }
    kept += part;
  };
  return {
    reservation,
    settleIn,
    settle: async () => {
      await settleIn(deps.db);
      await completed(null);
    },
    settlePart,
    refund,
    completed,
  };
}

/** A realtime socket's place among the plan's concurrent requests, held for as long as it is open. */
export interface SocketSlot {
  readonly id: string;
  /** Frees the place (the socket closed); once, never throws (a place not freed is swept after its lease). */
  release(): Promise<void>;
}

/**
 * How long a socket opening at the plan's limit waits for a place before it is refused. A socket's place
 * is freed as it closes, a moment after its client saw the close (and in another process, perhaps): a
 * client that closes one socket and opens the next at once gets the place.
 */
export const SOCKET_SLOT_WAIT_MS = 1000;

/**
 * Takes one of the plan's concurrency places for a realtime socket (text-to-speech input stream, live
 * transcription) for its whole life, or refuses with 429 `too_many_concurrent_requests` once none came
 * free within SOCKET_SLOT_WAIT_MS (issue 26 item 9: open sockets hold server memory whether they speak or
 * not, so they count as requests do, across every process). Held under this process's lease: a crash
 * frees it once the lease runs out. The socket's generations run `within` it (openBudget): they take no
 * place of their own.
 */
export async function openSocketSlot(
  deps: Pick<MeteringDeps, 'db' | 'leases' | 'logger'>,
  caller: Pick<MeteredCaller, 'workspaceId'>,
): Promise<SocketSlot> {
  const deadline = performance.now() + SOCKET_SLOT_WAIT_MS;
  let id: string;
  for (;;) {
    try {
      id = await takeSocketSlot(deps.db, { workspaceId: caller.workspaceId, leaseMs: deps.leases.leaseMs });
      break;
    } catch (error) {
      const full = error instanceof AppError && error.code === 'too_many_concurrent_requests';
      if (!full || performance.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  deps.leases.hold(id);
  let released = false;
  return {
    id,
    release: async () => {
      if (released) return;
      released = true;
      deps.leases.release(id);
      try {
        await refundGeneration(deps.db, id);
      } catch (error) {
        // No longer renewed: the sweep frees it once its lease runs out.
        deps.logger.warn({ err: error }, 'could not free a socket’s concurrency slot; its lease will');
      }
    },
  };
}

/** A part of a generation's result that has gone out, and the credits it costs (what `runDelivered` keeps). */
export type Deliver = (credits: number) => Promise<void>;

/**
 * Runs a generation whose result is delivered in parts as it is made (a socket's speech, sentence by
 * sentence), charged as it is delivered (issue 26 item 9, decision record 0016): the credits are reserved
 * first (`openBudget`, within the socket's place), the work calls `deliver(credits)` once each part has
 * gone out, and those are kept whatever follows. When the work ends the whole reservation is kept; when
 * it fails (the client dropped, an engine failed), or the process crashes, only what was not delivered
 * comes back. The work's error is thrown as it was.
 */
export async function runDelivered<T>(
  deps: Pick<MeteringDeps, 'db' | 'events' | 'clock' | 'leases'>,
  caller: MeteredCaller,
  work: MeteredWork,
  options: BudgetOptions,
  body: (deliver: Deliver) => Promise<T>,
): Promise<T> {
  const budget = await openBudget(deps, caller, work, options);
  let result: T;
  try {
    result = await body((credits) => budget.settlePart(credits));
  } catch (error) {
    await budget.refund().catch(() => undefined);
    throw error;
  }
  await budget.settle();
  return result;
}

/**
 * Keeps a generation's audio and writes its history item in the transaction that settles its credits
 * (history/voices §3: the item's character_count_change_from/to are the reservation's); then tells that
 * the generation completed.
 */
export async function recordGeneration(
  deps: { db: Db; storage: Storage },
  budget: Budget,
  item: Omit<HistoryItemInsert, 'characterCountChangeFrom' | 'characterCountChangeTo'>,
  audio: Buffer,
): Promise<string> {
  const id = await recordHistoryItem(
    deps,
    {
      ...item,
      characterCountChangeFrom: budget.reservation.from,
      characterCountChangeTo: budget.reservation.to,
    },
    audio,
    budget.settleIn,
  );
  await budget.completed(id);
  return id;
}

/** What a failed generation's error becomes for the client (an engine failure → a clean 503). */
export type ClientError = (error: unknown) => unknown;

/**
 * Runs a generation's work within its budget: the work settles the budget (recordGeneration, or
 * `budget.settle()`); any failure cancels what it queued, refunds the credits, and throws the error as
 * the client should see it.
 */
export async function runMetered<T>(
  budget: Budget,
  work: (signal: AbortSignal) => Promise<T>,
  clientError: ClientError,
): Promise<T> {
  const cancel = new AbortController();
  try {
    return await work(cancel.signal);
  } catch (error) {
    cancel.abort();
    await budget.refund();
    throw clientError(error);
  }
}

/**
 * A whole metered generation in one call (what a capability that keeps its result runs): takes the slot
 * and reserves the credits (`openBudget`), then runs the work with its budget; the work settles it
 * (`recordGeneration`, or `budget.settle()` when nothing is kept), any failure refunds it.
 */
export async function chargeGeneration<T>(
  deps: Pick<MeteringDeps, 'db' | 'events' | 'clock' | 'leases'>,
  caller: MeteredCaller,
  work: MeteredWork,
  run: (budget: Budget, signal: AbortSignal) => Promise<T>,
  clientError: ClientError,
): Promise<T> {
  const budget = await openBudget(deps, caller, work);
  return runMetered(budget, (signal) => run(budget, signal), clientError);
}

/** The body of a streamed generation, as metering ends it. */
export interface StreamedBody {
  end(): void;
  fail(error: unknown): void;
}

/**
 * The rest of a streamed generation, in the background once its answer has started: the work streams,
 * keeps and settles, then the body ends; a failure cancels what is queued (`cancel`), refunds the credits
 * and cuts the body short (the client sees a stream that ended early).
 */
export function finishStreamed(
  deps: Pick<MeteringDeps, 'logger'>,
  budget: Budget,
  body: StreamedBody,
  cancel: AbortController,
  work: () => Promise<void>,
): void {
  void (async () => {
    try {
      await work();
      body.end();
    } catch (error) {
      cancel.abort();
      await budget.refund().catch(() => undefined);
      deps.logger.warn({ err: error }, 'a streamed generation failed after it started; credits refunded');
      body.fail(error);
    }
  })();
}

/** The credits a workspace spent this period (accounts §3 character_count): what its plan's limit counts. */
export function creditsUsedOf(deps: Pick<MeteringDeps, 'db'>, workspaceId: string): Promise<number> {
  return creditsUsed(deps.db, workspaceId);
}

/** 403 `output_format_not_allowed` when the workspace's plan may not have this output format. */
export async function assertFormatAllowedFor(
  deps: Pick<MeteringDeps, 'db'>,
  workspaceId: string,
  outputFormat: OutputFormat,
): Promise<void> {
  assertFormatAllowed(outputFormat, (await readQuotaState(deps.db, workspaceId)).tier);
}
