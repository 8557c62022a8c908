import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';

/** The simulated bank step a card may ask for (3-D Secure in a real processor). */
export function AuthenticateStep({
  busy,
  onDecide,
}: {
  busy: boolean;
  onDecide: (approve: boolean) => void;
}) {
  return (
    <Card aria-labelledby="authenticate-title" className="flex flex-col gap-4 p-6">
      <div className="flex flex-col gap-1">
        <h2 id="authenticate-title" className="text-lg font-semibold tracking-tight">
          Authenticate this payment
        </h2>
        <p className="text-sm text-fg-muted">
          Your bank asks you to confirm this payment. In test mode you choose the bank's answer.
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button autoFocus onClick={busy ? undefined : () => onDecide(true)} aria-disabled={busy || undefined}>
          Complete authentication
        </Button>
        <Button
          variant="secondary"
          onClick={busy ? undefined : () => onDecide(false)}
          aria-disabled={busy || undefined}
        >
          Fail authentication
        </Button>
      </div>
    </Card>
  );
}
