import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';

/** A just-created key, shown this once, with a button that copies it. */
export function NewApiKeyReveal({ apiKey }: { apiKey: string }) {
  const { toast } = useToast();
  return (
    <div className="flex items-center gap-2">
      <code
        className="flex-1 overflow-x-auto rounded-lg border border-line bg-subtle px-3 py-2 font-mono text-sm"
        data-testid="new-api-key"
      >
        {apiKey}
      </code>
      <Button
        variant="secondary"
        onClick={() =>
          void navigator.clipboard
            ?.writeText(apiKey)
            .then(() => toast({ title: 'API key copied.', variant: 'success' }))
        }
      >
        Copy
      </Button>
    </div>
  );
}
