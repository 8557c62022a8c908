import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { signUpWithApiKey } from '../../test/factories';
import { characterCountOf, setCharacterCount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { concurrencySlots, creditLedger } from '../credits/credits.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { type Budget, type MeteredCaller, openBudget, runMetered } from './metering.service';

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
});
