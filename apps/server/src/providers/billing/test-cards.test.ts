import { describe, expect, it } from 'vitest';
import { cardRefusal, passesLuhn, readCard } from './test-cards';

describe('the test cards', () => {
  it('reads test cards like a card processor', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    const now = new Date('2026-06-01T00:00:00Z');
    const read = (card_number: string, exp_year = 2030, exp_month = 12) =>
      readCard({ card_number, exp_month, exp_year }, now);
    expect(read('4242 4242 4242 4242')).toMatchObject({
      card: { brand: 'visa', last4: '4242', behaviour: 'succeeds' },
    });
    expect(read('4000000000000002')).toMatchObject({ card: { behaviour: 'declined' } });
    expect(read('4000002500003155')).toMatchObject({ card: { behaviour: 'requires_authentication' } });
    expect(read('5555555555554444')).toMatchObject({ card: { brand: 'mastercard' } });
    expect(read('4242424242424242', 2026, 5)).toEqual({ error: 'Your card has expired.' });
    expect(read('1234')).toEqual({ error: 'Your card number is invalid.' });
    expect(cardRefusal('charge_fails', 'save')).toBeNull();
    expect(cardRefusal('charge_fails', 'charge')).toBe('Your card was declined.');
    expect(cardRefusal('insufficient_funds', 'charge')).toBe('Your card has insufficient funds.');
    expect(cardRefusal('declined', 'save')).toBe('Your card was declined.');
  });
});
