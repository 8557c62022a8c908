import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { signUpWithApiKey } from '../../test/factories';
import { characterCountOf, setCharacterCount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { concurrencySlots, creditLedger } from '../credits/credits.tables';
import { GenerationLeases } from '../credits/generation-leases';
import { workspaces } from '../workspaces/workspaces.tables';
import {
  type Budget,
  type MeteredCaller,
  openBudget,
  openSocketSlot,
  runDelivered,
  runMetered,
} from './metering.service';

/*
 * The metering module (issue 17 item 3) at its front door: budgets opened concurrently against a small
 * quota charge exactly once each and never past the plan; a settled budget keeps its credits, a failed
 * one refunds them, and the ledger balances with the workspace's count.
 */

let t: TestApp;
const db = () => t.deps.database.db;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function callerWithCredits(used: number): Promise<MeteredCaller> {
  const { userId, workspaceId } = await signUpWithApiKey(t.app);
  // Scale (15 concurrent requests), its credits nearly spent: 1,000 left.
  await db().update(workspaces).set({ tier: 'growing_business' }).where(eq(workspaces.id, workspaceId));
  await setCharacterCount(db(), workspaceId, used);
  return { userId, workspaceId, requestId: 'test' };
}

const deps = () => ({
  db: db(),
  events: t.deps.events,
  clock: t.deps.clock,
  logger: t.deps.logger,
  leases: t.deps.leases,
});

/** A process that stops (crashes) right after: its leases of `ms` are never renewed. */
const crashedDeps = (ms: number) => ({
  ...deps(),
  leases: new GenerationLeases({ db: db(), leaseMs: ms, logger: t.deps.logger, exclusiveDatabase: false }),
});

const usedBy = (workspaceId: string) => characterCountOf(db(), workspaceId);

async function ledgerOf(workspaceId: string) {
  return db()
    .select({ kind: creditLedger.kind, amount: creditLedger.amount })
    .from(creditLedger)
    .where(eq(creditLedger.workspaceId, workspaceId));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('metering', () => {
  it('concurrent budgets against a small quota: each charged once, never past the plan', async () => {
    const limit = 2_000_000; // Scale's credits a month.
    const caller = await callerWithCredits(limit - 1000);
    const opened = await Promise.allSettled(
      Array.from({ length: 12 }, () =>
        openBudget(deps(), caller, { kind: 'text_to_speech', credits: 100, modelId: 'parla_v1' }),
      ),
    );
    const budgets = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const refused = opened.flatMap((o) => (o.status === 'rejected' ? [o.reason as AppError] : []));
    expect(budgets).toHaveLength(10);
    expect(refused.map((e) => e.code)).toEqual(['quota_exceeded', 'quota_exceeded']);
    // Half settle, half fail: the failures refund.
    await Promise.all(budgets.slice(0, 5).map((b) => b.settle()));
    await Promise.all(
      budgets.slice(5).map((b) =>
        runMetered(
          b as Budget,
          async () => {
            throw new Error('engine failed');
          },
          (error) => error,
        ).catch(() => undefined),
      ),
    );
    const row = { used: await characterCountOf(db(), caller.workspaceId) };
    expect(row?.used).toBe(limit - 1000 + 500);
    const [ledger] = await db()
      .select({
        charged: sql<number>`coalesce(sum(${creditLedger.amount}) filter (where ${creditLedger.kind} = 'charge'), 0)::int`,
        refunded: sql<number>`coalesce(sum(${creditLedger.amount}) filter (where ${creditLedger.kind} = 'refund'), 0)::int`,
      })
      .from(creditLedger)
      .where(eq(creditLedger.workspaceId, caller.workspaceId));
    expect(ledger).toEqual({ charged: 1000, refunded: 500 });
    const slots = await db()
      .select()
      .from(concurrencySlots)
      .where(and(eq(concurrencySlots.workspaceId, caller.workspaceId)));
    expect(slots).toEqual([]);
  });

  it('a failure inside the work refunds and cancels what the work queued', async () => {
    const caller = await callerWithCredits(0);
    const budget = await openBudget(deps(), caller, {
      kind: 'text_to_speech',
      credits: 30,
      modelId: 'parla_v1',
    });
    let signal: AbortSignal | undefined;
    const error = await runMetered(
      budget,
      async (s) => {
        signal = s;
        throw new AppError('service_unavailable', 'failed');
      },
      (e) => e,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(signal?.aborted).toBe(true);
    const row = { used: await characterCountOf(db(), caller.workspaceId) };
    expect(row?.used).toBe(0);
  });

  it('a realtime socket holds one place of the plan for its life; its generations take none of their own', async () => {
    const caller = await callerWithCredits(0);
    // Free: 2 at a time (accounts §9).
    await db().update(workspaces).set({ tier: 'free' }).where(eq(workspaces.id, caller.workspaceId));
    const first = await openSocketSlot(deps(), caller);
    const work = { kind: 'text_to_speech', credits: 10, modelId: 'parla_v1' } as const;
    // Generations within the socket, however many, take no place.
    const within = await Promise.all(
      [1, 2, 3].map(() => openBudget(deps(), caller, work, { within: first })),
    );
    const second = await openSocketSlot(deps(), caller);
    // The plan's places are taken: a third socket and a request alike are refused.
    const refused = await openSocketSlot(deps(), caller).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'too_many_concurrent_requests',
      headers: { 'current-concurrent-requests': '2', 'maximum-concurrent-requests': '2' },
    });
    expect((refused as AppError).message).toContain('your plan allows 2 at a time');
    await expect(openBudget(deps(), caller, work)).rejects.toMatchObject({
      code: 'too_many_concurrent_requests',
    });
    await Promise.all(within.map((b) => b.settle()));
    // A socket opening at the limit waits a moment for a place: one closing meanwhile gives it its own
    // (once, however often it is told).
    const waiting = openSocketSlot(deps(), caller);
    await sleep(200);
    await second.release();
    await second.release();
    const third = await waiting;
    await Promise.all([first.release(), third.release()]);
    expect(
      await db().select().from(concurrencySlots).where(eq(concurrencySlots.workspaceId, caller.workspaceId)),
    ).toEqual([]);
    expect(await usedBy(caller.workspaceId)).toBe(30);
  });

  it('a socket’s place held by a process that crashed is freed once its lease runs out', async () => {
    const caller = await callerWithCredits(0);
    await db().update(workspaces).set({ tier: 'free' }).where(eq(workspaces.id, caller.workspaceId));
    // Leases of 2.5 s, never renewed: longer than a socket at the limit waits for a place (1 s).
    const openedAt = performance.now();
    await openSocketSlot(crashedDeps(2500), caller);
    await openSocketSlot(crashedDeps(2500), caller);
    await expect(openSocketSlot(deps(), caller)).rejects.toMatchObject({
      code: 'too_many_concurrent_requests',
    });
    expect(performance.now() - openedAt).toBeLessThan(2500);
    await sleep(2600 - (performance.now() - openedAt));
    // Their leases ran out: they no longer count, and any live process's sweep removes them.
    const next = await openSocketSlot(deps(), caller);
    await t.deps.leases.sweep(false);
    expect(
      await db().select().from(concurrencySlots).where(eq(concurrencySlots.workspaceId, caller.workspaceId)),
    ).toHaveLength(1);
    await next.release();
  });

  it('a generation charged as it is delivered keeps what went out: a failure or a crash gives back only the rest', async () => {
    const caller = await callerWithCredits(0);
    const work = { kind: 'text_to_speech', credits: 100, modelId: 'parla_v1' } as const;
    // Delivered 30 then 20, then the client dropped: 50 kept, 50 given back.
    const dropped = await runDelivered(deps(), caller, work, {}, async (deliver) => {
      await deliver(30);
      await deliver(20);
      throw new Error('the socket closed');
    }).catch((e: unknown) => e);
    expect(dropped).toEqual(new Error('the socket closed'));
    expect(await usedBy(caller.workspaceId)).toBe(50);
    // All delivered: the whole reservation is kept (more than it is never charged).
    await runDelivered(deps(), caller, work, {}, async (deliver) => {
      await deliver(60);
      await deliver(60);
    });
    expect(await usedBy(caller.workspaceId)).toBe(150);
    // The process crashed after 40 went out: its sweep gives back 60, not 100.
    const crashed = await openBudget(crashedDeps(200), caller, work);
    await crashed.settlePart(25);
    await crashed.settlePart(15);
    await sleep(300);
    await t.deps.leases.sweep(false);
    expect(await usedBy(caller.workspaceId)).toBe(190);
    // What was swept cannot be kept after.
    await expect(crashed.settlePart(10)).rejects.toMatchObject({ code: 'service_unavailable' });
    // Tied to their charges: one refund each, of what was not delivered.
    const ledger = await ledgerOf(caller.workspaceId);
    expect(ledger.filter((row) => row.kind === 'charge').map((row) => row.amount)).toEqual([100, 100, 100]);
    expect(
      ledger
        .filter((row) => row.kind === 'refund')
        .map((row) => row.amount)
        .sort((a, b) => a - b),
    ).toEqual([50, 60]);
  });
});
