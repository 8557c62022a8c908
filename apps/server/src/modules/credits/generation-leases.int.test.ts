import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { signUpWithApiKey } from '../../test/factories';
import { characterCountOf, setCharacterCount } from '../../test/speech-fixtures';
import { createTestApp, spendDepsOf, type TestApp } from '../../test/test-app';
import { workspaces } from '../workspaces/workspaces.tables';
import {
  openGeneration,
  refundGeneration,
  settleGeneration,
  sweepAbandonedGenerations,
} from './credits.service';
import { concurrencySlots, creditLedger } from './credits.tables';

/*
 * The durable reservations of issue 16, at the database: whoever deletes a generation's slot row refunds
 * its charge, once — the process itself, or a sweep after its lease ran out — never after a settle, never
 * twice under concurrent sweeps, never for a live slot of the sweeping process, and never across a period
 * reset.
 */

let t: TestApp;
const db = () => t.deps.database.db;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function account() {
  const { workspaceId } = await signUpWithApiKey(t.app);
  // Scale: credits and concurrent slots enough for these tests.
  await db().update(workspaces).set({ tier: 'growing_business' }).where(eq(workspaces.id, workspaceId));
  return workspaceId;
}

const open = (workspaceId: string, amount: number) =>
  openGeneration(spendDepsOf(t), { workspaceId, amount, now: new Date(), leaseMs: 60_000 });

const used = (workspaceId: string) => characterCountOf(db(), workspaceId);

/** Makes the leases of these slots run out, as if their process had died a while ago. */
async function expire(slotIds: string[]): Promise<void> {
  await db()
    .update(concurrencySlots)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(inArray(concurrencySlots.id, slotIds));
}

async function refundsOf(workspaceId: string) {
  return db()
    .select({ chargeId: creditLedger.chargeId, amount: creditLedger.amount })
    .from(creditLedger)
    .where(and(eq(creditLedger.workspaceId, workspaceId), eq(creditLedger.kind, 'refund')));
}

describe('durable reservations', () => {
  it('a settled generation is never refunded, by its process or a sweep', async () => {
    const workspaceId = await account();
    const { slotId } = await open(workspaceId, 40);
    expect(await db().transaction((tx) => settleGeneration(tx, slotId))).toBe(true);
    await refundGeneration(db(), slotId);
    await sweepAbandonedGenerations(db(), { everything: true });
    expect(await used(workspaceId)).toBe(40);
    expect(await refundsOf(workspaceId)).toEqual([]);
  });

  it('a refunded generation cannot be settled after', async () => {
    const workspaceId = await account();
    const { slotId, reservation } = await open(workspaceId, 25);
    await refundGeneration(db(), slotId);
    await refundGeneration(db(), slotId);
    expect(await db().transaction((tx) => settleGeneration(tx, slotId))).toBe(false);
    expect(await used(workspaceId)).toBe(0);
    expect(await refundsOf(workspaceId)).toEqual([{ chargeId: reservation.chargeId, amount: 25 }]);
  });

  it('concurrent sweeps refund each abandoned charge exactly once', async () => {
    const workspaceIds = [await account(), await account()];
    const held = [];
    for (let i = 0; i < 30; i += 1) held.push(await open(workspaceIds[i % 2] as string, 10));
    await expire(held.map((h) => h.slotId));
    await Promise.all(Array.from({ length: 4 }, () => sweepAbandonedGenerations(db())));
    for (const workspaceId of workspaceIds) {
      expect(await used(workspaceId)).toBe(0);
      const refunds = await refundsOf(workspaceId);
      expect(refunds).toHaveLength(15);
      expect(new Set(refunds.map((r) => r.chargeId)).size).toBe(15);
    }
  });

  it('a sweep leaves the sweeping process’s own live slots, even with their lease run out', async () => {
    const workspaceId = await account();
    const mine = await open(workspaceId, 5);
    const theirs = await open(workspaceId, 7);
    await expire([mine.slotId, theirs.slotId]);
    await sweepAbandonedGenerations(db(), { except: [mine.slotId] });
    expect(await used(workspaceId)).toBe(5);
    expect(await db().transaction((tx) => settleGeneration(tx, mine.slotId))).toBe(true);
  });

  it('gives nothing back once a period reset cleared the count the charge was part of', async () => {
    const workspaceId = await account();
    const { slotId } = await open(workspaceId, 30);
    // The renewal resets the period's count (the ledger's reset row) while the generation still runs.
    await db()
      .insert(creditLedger)
      .values({
        id: newId(),
        workspaceId,
        kind: 'reset',
        amount: 30,
        createdAt: new Date(Date.now() + 1000),
      });
    await setCharacterCount(db(), workspaceId, 0);
    await refundGeneration(db(), slotId);
    expect(await used(workspaceId)).toBe(0);
    expect(await refundsOf(workspaceId)).toEqual([]);
    expect(await db().select().from(concurrencySlots).where(eq(concurrencySlots.id, slotId))).toEqual([]);
  });
});
