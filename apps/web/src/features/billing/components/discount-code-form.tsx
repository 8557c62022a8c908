import { type FormEvent, useState } from 'react';
import { useToast } from '../../../app/toasts/toast-provider';
import { getToastMessage } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { Card, CardContent, CardHeader } from '../../../ui/card';
import { TextField } from '../../../ui/field';
import { useApplyDiscount } from '../api/apply-discount';

/** accounts §4 "apply a discount code": a code taken off the next invoice of a paid subscription. */
export function DiscountCodeForm() {
  const { toast } = useToast();
  const apply = useApplyDiscount();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (apply.isPending) return;
    if (!code.trim()) return setError('Enter a discount code.');
    setError(undefined);
    apply.mutate(code.trim(), {
      onSuccess: () => {
        toast({ title: `Discount ${code.trim()} applied to your next invoice.`, variant: 'success' });
        setCode('');
      },
      onError: (caught) => setError(getToastMessage(caught)),
    });
  };

  return (
    <Card aria-labelledby="discount-code-title">
      <CardHeader>
        <div>
          <h2 id="discount-code-title" className="text-base font-semibold">
            Discount code
          </h2>
          <p className="mt-1 text-sm text-fg-muted">Take a discount off your next invoice.</p>
        </div>
      </CardHeader>
      <CardContent>
        <form className="flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={submit} noValidate>
          <TextField
            className="flex-1"
            label="Code"
            name="discount_code"
            autoComplete="off"
            spellCheck={false}
            maxLength={64}
            value={code}
            error={error}
            onChange={(event) => setCode(event.target.value)}
          />
          <Button
            type="submit"
            variant="secondary"
            className="sm:mt-6.5"
            aria-disabled={apply.isPending || undefined}
          >
            {apply.isPending ? 'Applying…' : 'Apply'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
