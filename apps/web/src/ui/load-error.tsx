import clsx from 'clsx';
import { getToastMessage } from '../lib/http-error';
import { Button } from './button';
import { FormMessage } from './field';

/** A load that failed: the server's reason (or the generic one) and a button to try again. */
export function LoadError({
  error,
  onRetry,
  className,
}: {
  error: unknown;
  onRetry: () => void;
  className?: string;
}) {
  return (
    <div className={clsx('flex flex-col items-start gap-3', className)}>
      <FormMessage>{getToastMessage(error)}</FormMessage>
      <Button variant="secondary" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
