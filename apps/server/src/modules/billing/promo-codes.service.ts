import { DISCOUNT_CODES, type PromoValidation } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import {
  type BillingCaller,
  type BillingDeps,
  conflict,
  idempotent,
  requirePaidSubscription,
  requireProvider,
  withLockedState,
} from './billing.context';
import { presentPromoValidation } from './billing.present';
import { withRedeemed } from './billing.pricing';
import { loadBillingState, saveSubscription } from './billing.store';
import type { StoredDiscount } from './billing.tables';
import { findPromoCode, upsertPromoCode } from './promo-codes.store';

/** A promo code's terms, or the §8 errors: unknown → invalid_promocode, past its end → coupon_expired. */
export async function findPromo(
  db: Db,
  code: string,
  now: Date,
  redeemed: string[] = [],
): Promise<StoredDiscount> {
  const row = await findPromoCode(db, code);
  // A code this workspace has used is spent for it (each works once per workspace).
  if (!row || redeemed.includes(row.code))
    throw new AppError('invalid_promocode', `Coupon code ${code} is invalid`);
  if (row.expiresAt && row.expiresAt <= now) {
    throw new AppError('coupon_expired', 'This coupon has expired, please use a different one.');
  }
  return {
    code: row.code,
    percentOff: row.percentOff,
    amountOff: row.amountOff,
    monthsLeft: row.durationInMonths,
  };
}

export async function validatePromocode(
  deps: BillingDeps,
  caller: BillingCaller,
  code: string,
): Promise<PromoValidation> {
  try {
    const { sub } = await loadBillingState(deps.db, caller.workspaceId);
    const promo = await findPromo(deps.db, code, deps.clock.now(), sub.redeemedCodes);
    return presentPromoValidation(code, promo);
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid_promocode') {
      return presentPromoValidation(code, null);
    }
    throw error;
  }
}

/** accounts §9 discount codes special-offer-30/50/70: that percentage off the next invoice. */
export async function applyDiscount(
  deps: BillingDeps,
  caller: BillingCaller,
  code: string,
  key?: string,
): Promise<{ status: 'ok' }> {
  const provider = requireProvider(deps);
  return idempotent(deps, caller.workspaceId, key, 'apply-discount', { code }, () =>
    withLockedState(deps, caller.workspaceId, caller.userId, async (ctx) => {
      if (!(DISCOUNT_CODES as readonly string[]).includes(code)) {
        throw new AppError('invalid_promocode', `Discount code ${code} is invalid`);
      }
      requirePaidSubscription(ctx.state);
      // One special offer per workspace: they are not to be stacked renewal after renewal.
      if (ctx.state.sub.redeemedCodes.some((used) => (DISCOUNT_CODES as readonly string[]).includes(used))) {
        throw conflict('This workspace has already used a special offer.');
      }
      const percentOff = Number(code.split('-').at(-1));
      const discount = { code, percentOff, amountOff: null, monthsLeft: 1 };
      await provider.applyDiscount(ctx, discount);
      await saveSubscription(
        ctx.tx,
        ctx.state,
        { discount, redeemedCodes: withRedeemed(ctx.state.sub.redeemedCodes, code) },
        ctx.now,
      );
      return { status: 'ok' as const };
    }),
  );
}

/** Makes a promo code (admin command line). */
export async function createPromoCode(
  db: Db,
  input: {
    code: string;
    amountOff?: number | null;
    percentOff?: number | null;
    durationInMonths?: number;
    expiresAt?: Date | null;
  },
): Promise<void> {
  if ((input.amountOff == null) === (input.percentOff == null)) {
    throw new AppError('bad_request', 'A promo code takes an amount off or a percentage off, not both.');
  }
  await upsertPromoCode(db, {
    code: input.code,
    amountOff: input.amountOff ?? null,
    percentOff: input.percentOff ?? null,
    durationInMonths: input.durationInMonths ?? 1,
    expiresAt: input.expiresAt ?? null,
  });
}
