import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';

/** A new webhook's signing secret, shown this once, with a button that copies it. */
export function WebhookSecretReveal({ secret }: { secret: string }) {
  const { toast } = useToast();
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          className="min-w-0 flex-1 overflow-x-auto rounded-lg border border-line bg-subtle px-3 py-2 font-mono text-sm break-all"
          data-testid="webhook-secret"
        >
          {secret}
        </code>
        <Button
          variant="secondary"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(secret)
              .then(() => toast({ title: 'Signing secret copied.', variant: 'success' }))
          }
        >
          Copy
        </Button>
      </div>
      <p className="text-sm text-fg-muted">
        Each delivery carries an <code className="font-mono text-fg">ElevenLabs-Signature</code> header signed
        with it; the ElevenLabs SDKs check it with{' '}
        <code className="font-mono text-fg">webhooks.constructEvent</code>.
      </p>
    </div>
  );
}
