import type { Currency, PricePeriod } from '@parla/contracts';
import { SegmentedControl } from '../../../ui/segmented-control';

const periodOptions = [
  { value: 'monthly', label: 'Monthly' },
  { value: 'yearly', label: 'Yearly', note: '2 months free' },
] as const;

const currencyOptions = [
  { value: 'usd', label: 'USD $' },
  { value: 'eur', label: 'EUR €' },
] as const;

/** The monthly / yearly switch of the plan cards. */
export function PeriodToggle({
  value,
  onChange,
}: {
  value: PricePeriod;
  onChange: (value: PricePeriod) => void;
}) {
  return (
    <SegmentedControl label="Billing period" options={periodOptions} value={value} onChange={onChange} />
  );
}

/** The usd / eur switch of the plan cards (accounts §4 currency). */
export function CurrencyToggle({
  value,
  onChange,
}: {
  value: Currency;
  onChange: (value: Currency) => void;
}) {
  return <SegmentedControl label="Currency" options={currencyOptions} value={value} onChange={onChange} />;
}
