import { type FormEvent, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Card, CardContent, CardHeader } from '../../../ui/card';
import { useApplyDiscount } from '../api/apply-discount';
import { CodeEntryForm } from './code-entry-form';

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
        <CodeEntryForm
          name="discount_code"
          value={code}
          error={error}
          busy={apply.isPending}
          submitLabel="Apply"
          busyLabel="Applying…"
          onChange={setCode}
          onSubmit={submit}
        />
      </CardContent>
    </Card>
  );
}
