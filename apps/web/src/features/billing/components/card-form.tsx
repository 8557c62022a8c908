import type { CardDetails } from '@parla/contracts';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../ui/button';
import { FormMessage, TextField } from '../../../ui/field';
import {
  type CardFormErrors,
  type CardFormFields,
  emptyCardForm,
  formatCardNumber,
  formatExpiry,
  readCardForm,
} from '../card-form-rules';
import { TestCardsHint } from './test-cards-hint';

export interface CardFormProps {
  submitLabel: string;
  busy: boolean;
  /** The provider's answer to the last card (a decline), shown above the button. */
  error: string | null;
  onSubmit: (card: CardDetails) => void;
}

/**
 * The card fields of the test-mode provider: number, expiry MM/YY, CVC and name, checked here before the
 * server sees them; the test cards sit below.
 */
export function CardForm({ submitLabel, busy, error, onSubmit }: CardFormProps) {
  const [fields, setFields] = useState<CardFormFields>(emptyCardForm);
  const [errors, setErrors] = useState<CardFormErrors>({});
  const numberId = useId();
  const set = (name: keyof CardFormFields, value: string) =>
    setFields((current) => ({ ...current, [name]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const read = readCardForm(fields);
    if (!read.ok) return setErrors(read.errors);
    setErrors({});
    onSubmit(read.card);
  };

  return (
    <div className="flex flex-col gap-6">
      <form className="flex flex-col gap-4" onSubmit={submit} noValidate aria-label="Card details">
        <TextField
          id={numberId}
          label="Card number"
          name="cardnumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          value={fields.cardNumber}
          error={errors.cardNumber}
          onChange={(event) => set('cardNumber', formatCardNumber(event.target.value))}
        />
        <div className="grid grid-cols-2 gap-4">
          <TextField
            label="Expiry (MM/YY)"
            name="exp-date"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            value={fields.expiry}
            error={errors.expiry}
            onChange={(event) => set('expiry', formatExpiry(event.target.value, fields.expiry))}
          />
          <TextField
            label="CVC"
            name="cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            value={fields.cvc}
            error={errors.cvc}
            onChange={(event) => set('cvc', event.target.value.replace(/\D/g, ''))}
          />
        </div>
        <TextField
          label="Name on card"
          name="ccname"
          autoComplete="cc-name"
          value={fields.name}
          error={errors.name}
          onChange={(event) => set('name', event.target.value)}
        />
        {error && <FormMessage>{error}</FormMessage>}
        <Button type="submit" aria-disabled={busy || undefined}>
          {busy ? 'Processing…' : submitLabel}
        </Button>
      </form>
      <TestCardsHint
        onUse={(cardNumber) => {
          set('cardNumber', cardNumber);
          document.getElementById(numberId)?.focus();
        }}
      />
    </div>
  );
}
