import { CardDetails, type PaymentMethod, TEST_CARDS } from '@parla/contracts';

/** What the card form holds, as typed. */
export interface CardFormFields {
  cardNumber: string;
  /** MM/YY (MM/YYYY is read too). */
  expiry: string;
  cvc: string;
  name: string;
}

export type CardFormErrors = Partial<Record<keyof CardFormFields, string>>;

export const emptyCardForm: CardFormFields = { cardNumber: '', expiry: '', cvc: '', name: '' };

/** Groups the digits by four as the user types: "4242 4242 4242 4242". */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "0428" or "04/28" typed → "04/28"; a lone month digit above 1 gets its zero ("4" → "04/"). */
export function formatExpiry(value: string, previous = ''): string {
  const digits = value.replace(/\D/g, '').slice(0, 6);
  if (digits.length === 1 && Number(digits) > 1) return `0${digits}/`;
  if (digits.length < 2) return digits;
  // Deleting the slash deletes it, rather than putting it straight back.
  if (digits.length === 2)
    return previous.endsWith('/') && value.length < previous.length ? digits : `${digits}/`;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/** MM/YY or MM/YYYY → month and four-digit year; null when it is not a date. */
export function parseExpiry(value: string, now: Date = new Date()): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  const month = Number(match[1]);
  const rawYear = Number(match[2]);
  if (month < 1 || month > 12) return null;
  const century = Math.floor(now.getFullYear() / 100) * 100;
  return { month, year: rawYear < 100 ? century + rawYear : rawYear };
}

/**
 * Checks the form and builds the card the API takes (contracts CardDetails); a card past its month is
 * refused here, as a processor would.
 */
export function readCardForm(
  fields: CardFormFields,
  now: Date = new Date(),
): { ok: true; card: CardDetails } | { ok: false; errors: CardFormErrors } {
  const errors: CardFormErrors = {};
  const digits = fields.cardNumber.replace(/\D/g, '');
  if (digits.length < 12 || digits.length > 19) errors.cardNumber = 'Enter the card number.';
  const expiry = parseExpiry(fields.expiry, now);
  if (!expiry) errors.expiry = 'Enter the expiry date as MM/YY.';
  else if (expiry.year * 12 + expiry.month < now.getFullYear() * 12 + now.getMonth() + 1) {
    errors.expiry = 'This card has expired.';
  }
  if (!/^\d{3,4}$/.test(fields.cvc.trim())) errors.cvc = 'Enter the 3 or 4 digit security code.';
  if (!fields.name.trim()) errors.name = 'Enter the name on the card.';
  if (Object.keys(errors).length > 0 || !expiry) return { ok: false, errors };
  const parsed = CardDetails.safeParse({
    card_number: digits,
    exp_month: expiry.month,
    exp_year: expiry.year,
    cvc: fields.cvc.trim(),
    cardholder_name: fields.name.trim(),
  });
  return parsed.success
    ? { ok: true, card: parsed.data }
    : { ok: false, errors: { cardNumber: 'Check the card details.' } };
}

/** What each test card of the built-in provider does, for the hint box (every card is listed). */
const testCardOutcomes: Record<keyof typeof TEST_CARDS, string> = {
  succeeds: 'Succeeds',
  requiresAuthentication: 'Asks for authentication first',
  declined: 'Is declined',
  insufficientFunds: 'Is declined for insufficient funds',
  chargeFails: 'Saves, then every later charge fails',
};

export const testCardHints = (Object.keys(TEST_CARDS) as Array<keyof typeof TEST_CARDS>).map((key) => ({
  number: formatCardNumber(TEST_CARDS[key]),
  outcome: testCardOutcomes[key],
}));

/** "Visa •••• 4242, expires 04/28". */
export function paymentMethodText(method: PaymentMethod): string {
  const month = String(method.exp_month).padStart(2, '0');
  const year = String(method.exp_year).slice(-2);
  return `${method.brand} •••• ${method.last4}, expires ${month}/${year}`;
}
