import { TEST_CARDS } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { formatCardNumber, formatExpiry, parseExpiry, readCardForm, testCardHints } from './card-form-rules';

const now = new Date(Date.UTC(2026, 10, 24));

describe('card form rules', () => {
  it('groups the card number by four and drops what is not a digit', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-42a')).toBe('4242 42');
  });

  it('formats the expiry as MM/YY while typing', () => {
    expect(formatExpiry('4')).toBe('04/');
    expect(formatExpiry('12')).toBe('12/');
    expect(formatExpiry('1228')).toBe('12/28');
    // Deleting the slash after the month deletes it.
    expect(formatExpiry('12', '12/')).toBe('12');
  });

  it('reads MM/YY and MM/YYYY, and refuses a month that does not exist', () => {
    expect(parseExpiry('04/28', now)).toEqual({ month: 4, year: 2028 });
    expect(parseExpiry('4/2031', now)).toEqual({ month: 4, year: 2031 });
    expect(parseExpiry('13/28', now)).toBeNull();
    expect(parseExpiry('0428', now)).toBeNull();
  });

  it('builds the card the API takes, or says what is missing', () => {
    expect(
      readCardForm({ cardNumber: '4242 4242 4242 4242', expiry: '11/26', cvc: '123', name: ' Ada ' }, now),
    ).toEqual({
      ok: true,
      card: {
        card_number: '4242424242424242',
        exp_month: 11,
        exp_year: 2026,
        cvc: '123',
        cardholder_name: 'Ada',
      },
    });
    expect(readCardForm({ cardNumber: '4242', expiry: '10/26', cvc: '12', name: '' }, now)).toEqual({
      ok: false,
      errors: {
        cardNumber: 'Enter the card number.',
        expiry: 'This card has expired.',
        cvc: 'Enter the 3 or 4 digit security code.',
        name: 'Enter the name on the card.',
      },
    });
  });

  it('lists every test card of the provider', () => {
    expect(testCardHints.map((hint) => hint.number.replaceAll(' ', '')).sort()).toEqual(
      Object.values(TEST_CARDS).sort(),
    );
  });
});
