import { type Currency, formatPrice, type PromoValidation } from '@parla/contracts';
import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { isHttpError } from '../../lib/http-error';
import { readStorage, removeStorage, storageKeys, writeStorage } from '../../lib/storage-keys';
import { validatePromocode } from './api/validate-promocode';
import { billingMessages } from './billing-messages';

/** accounts §3 "Promo": what is kept in the browser once a code is valid. */
export const StoredPromo = z.object({
  promocode: z.string().min(1),
  amount_off: z.number().int().nullable(),
  percent_off: z.number().nullable(),
  duration_in_months: z.number().int().nullable(),
});
export type StoredPromo = z.infer<typeof StoredPromo>;

const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

/** The stored promo, or null when none (or when what is stored is not a promo). */
export function readStoredPromo(): StoredPromo | null {
  const raw = readStorage(storageKeys.promo);
  if (!raw) return null;
  try {
    const parsed = StoredPromo.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Keeps a valid promo; a new promo shows its dialog again. */
export function storePromo(promo: StoredPromo): void {
  writeStorage(storageKeys.promo, JSON.stringify(StoredPromo.parse(promo)));
  removeStorage(storageKeys.promoDismissed);
  notify();
}

/** Forgets the promo (accounts §4 "No thanks", §8 invalid and expired codes). */
export function clearStoredPromo(): void {
  removeStorage(storageKeys.promo);
  removeStorage(storageKeys.promoDismissed);
  notify();
}

/** Whether the dialog of this promo was dismissed (the floating banner shows instead). */
export function isPromoDismissed(promo: StoredPromo): boolean {
  return readStorage(storageKeys.promoDismissed) === promo.promocode;
}

export function setPromoDismissed(promo: StoredPromo, dismissed: boolean): void {
  if (dismissed) writeStorage(storageKeys.promoDismissed, promo.promocode);
  else removeStorage(storageKeys.promoDismissed);
  notify();
}

interface PromoSnapshot {
  promo: StoredPromo | null;
  dismissed: boolean;
}

let snapshot: PromoSnapshot = { promo: null, dismissed: false };
let snapshotKey = '';

/** One object per stored state, so useSyncExternalStore sees a change only when there is one. */
function getSnapshot(): PromoSnapshot {
  const promo = readStoredPromo();
  const dismissed = promo ? isPromoDismissed(promo) : false;
  const key = `${JSON.stringify(promo)}|${dismissed}`;
  if (key !== snapshotKey) {
    snapshotKey = key;
    snapshot = { promo, dismissed };
  }
  return snapshot;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab entering or clearing a promo.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** The stored promo and whether its dialog was dismissed, kept in step with storage. */
export function useStoredPromo(): PromoSnapshot {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

export type PromoOutcome =
  | { kind: 'valid'; promo: StoredPromo }
  | { kind: 'invalid' }
  | { kind: 'expired' }
  | { kind: 'failed' };

/** The error code the server sends for a coupon past its end (accounts §8 "Expired coupon"). */
export const couponExpiredCode = 'coupon_expired';
/** The error code of an unknown promo code (contracts errors.ts). */
const invalidPromocodeCode = 'invalid_promocode';

/**
 * What a validation means (accounts §4 "Promo code entry", §8): valid, invalid (an answer of `valid:
 * false`, or the server refusing the code), expired, or a failed validation (network, 5xx, anything else).
 */
export function promoOutcomeOf(
  code: string,
  answer: { ok: true; value: PromoValidation } | { ok: false; error: unknown },
): PromoOutcome {
  if (answer.ok) {
    const { value } = answer;
    if (!value.valid) return { kind: 'invalid' };
    return {
      kind: 'valid',
      promo: {
        promocode: value.promocode || code,
        amount_off: value.amount_off,
        percent_off: value.percent_off,
        duration_in_months: value.duration_in_months,
      },
    };
  }
  if (isHttpError(answer.error)) {
    if (answer.error.errorType === couponExpiredCode) return { kind: 'expired' };
    if (answer.error.errorType === invalidPromocodeCode) return { kind: 'invalid' };
  }
  return { kind: 'failed' };
}

/** The toast of an outcome (accounts §8); a valid code needs none, the subscription page shows its offer. */
export function promoOutcomeMessage(code: string, outcome: PromoOutcome): string | null {
  switch (outcome.kind) {
    case 'valid':
      return null;
    case 'invalid':
      return billingMessages.couponInvalid(code);
    case 'expired':
      return billingMessages.couponExpired;
    case 'failed':
      return billingMessages.promoValidationFailed;
  }
}

/**
 * A checkout or change refused because of its stored promo (accounts §8): the expired or invalid coupon's
 * message, or null when the failure is about something else.
 */
export function promoRefusalMessage(code: string, error: unknown): string | null {
  if (!isHttpError(error)) return null;
  if (error.errorType === couponExpiredCode) return billingMessages.couponExpired;
  if (error.errorType === invalidPromocodeCode) return billingMessages.couponInvalid(code);
  return null;
}

/**
 * accounts §4 "Promo code entry": validates the code, stores its terms when valid and clears the stored
 * promo otherwise. Never rejects.
 */
export async function enterPromocode(code: string): Promise<PromoOutcome> {
  const trimmed = code.trim();
  const outcome = await validatePromocode(trimmed).then(
    (value) => promoOutcomeOf(trimmed, { ok: true, value }),
    (error: unknown) => promoOutcomeOf(trimmed, { ok: false, error }),
  );
  if (outcome.kind === 'valid') storePromo(outcome.promo);
  else clearStoredPromo();
  return outcome;
}

/** "$22 off" or "20% off" (amounts are cents, accounts §3). */
export function promoDiscountText(promo: StoredPromo, currency: Currency): string | null {
  if (promo.amount_off !== null && promo.amount_off > 0)
    return `${formatPrice(promo.amount_off / 100, currency)} off`;
  if (promo.percent_off !== null && promo.percent_off > 0) return `${promo.percent_off}% off`;
  return null;
}

/** "for your first month", "for 3 months", or "" when the promo names no duration. */
export function promoDurationText(promo: StoredPromo): string {
  const months = promo.duration_in_months;
  if (months === null || months <= 0) return '';
  return months === 1 ? 'for your first month' : `for ${months} months`;
}
