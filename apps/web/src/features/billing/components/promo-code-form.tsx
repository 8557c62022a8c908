import type { Currency } from '@parla/contracts';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../ui/button';
import { Card, CardContent, CardHeader } from '../../../ui/card';
import { clearStoredPromo, promoDiscountText, promoDurationText, useStoredPromo } from '../promo';
import { usePromocodeEntry } from '../use-promocode-entry';
import { CodeEntryForm } from './code-entry-form';

/** accounts §4 "Promo code entry": redeem a code for an offer; the saved offer shows with a way to drop it. */
export function PromoCodeForm({ currency }: { currency: Currency }) {
  const { promo } = useStoredPromo();
  const entry = usePromocodeEntry();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (entry.busy) return;
    if (!code.trim()) return setError('Enter a promo code.');
    setError(undefined);
    void entry.enter(code).then((outcome) => {
      if (outcome.kind === 'valid') setCode('');
    });
  };

  const discount = promo ? promoDiscountText(promo, currency) : null;
  return (
    <Card aria-labelledby="promo-code-title">
      <CardHeader>
        <div>
          <h2 id="promo-code-title" className="text-base font-semibold">
            Promo code
          </h2>
          <p className="mt-1 text-sm text-fg-muted">Redeem a code for an offer on a plan.</p>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {promo && (
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-success-soft px-3 py-2 text-sm">
            <p>
              <span className="font-mono font-medium">{promo.promocode}</span>
              {discount && (
                <span className="text-fg-muted">
                  {' '}
                  · {discount} {promoDurationText(promo)}
                </span>
              )}
              <span className="text-fg-muted"> · used when you subscribe</span>
            </p>
            <Button variant="ghost" size="sm" onClick={clearStoredPromo}>
              Remove
            </Button>
          </div>
        )}
        <CodeEntryForm
          name="promocode"
          value={code}
          error={error}
          busy={entry.busy}
          submitLabel="Redeem"
          busyLabel="Checking…"
          onChange={setCode}
          onSubmit={submit}
        />
      </CardContent>
    </Card>
  );
}
