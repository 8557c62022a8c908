import type { CardBehaviour, CardOnFile, EnteredCard } from './billing-provider';

/** Luhn's check digit rule, which every card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

const TEST_CARD_BEHAVIOUR: Record<string, CardBehaviour> = {
  '4242424242424242': 'succeeds',
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient_funds',
  '4000002500003155': 'requires_authentication',
  '4000000000000341': 'charge_fails',
};

/**
 * Reads a card entered on a hosted page of the built-in provider: the number must pass Luhn's rule and
 * the card must not have expired. Numbers other than the listed test cards behave like 4242….
 */
export function readCard(input: EnteredCard, now: Date): { card: CardOnFile } | { error: string } {
  const digits = input.card_number.replace(/\s+/g, '');
  if (!/^[0-9]{12,19}$/.test(digits) || !passesLuhn(digits)) return { error: 'Your card number is invalid.' };
  const expiry = Date.UTC(input.exp_year, input.exp_month, 1);
  if (expiry <= now.getTime()) return { error: 'Your card has expired.' };
  const brand = digits.startsWith('4')
    ? 'visa'
    : /^5[1-5]/.test(digits)
      ? 'mastercard'
      : digits.startsWith('3')
        ? 'amex'
        : 'card';
  return {
    card: {
      brand,
      last4: digits.slice(-4),
      exp_month: input.exp_month,
      exp_year: input.exp_year,
      behaviour: TEST_CARD_BEHAVIOUR[digits] ?? 'succeeds',
    },
  };
}

/**
 * Why a card refuses, in a card processor's words; null when it goes through. Saving a card (a zero
 * authorisation) fails only for a declined card; 4000…0341 saves fine and then fails every charge.
 */
export function cardRefusal(behaviour: CardBehaviour, purpose: 'charge' | 'save'): string | null {
  if (behaviour === 'declined') return 'Your card was declined.';
  if (purpose === 'save') return null;
  if (behaviour === 'insufficient_funds') return 'Your card has insufficient funds.';
  if (behaviour === 'charge_fails') return 'Your card was declined.';
  return null;
}
