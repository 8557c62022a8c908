import type { ReactNode } from 'react';
import { Button } from '../../../ui/button';
import { Skeleton } from '../../../ui/skeleton';

export interface CatalogueStateProps {
  /** The voices or the models could not be loaded. */
  failed: boolean;
  /** Either is still loading. */
  pending: boolean;
  /** Fetches both again. */
  onRetry: () => void;
  /** The skeletons' classes while loading, one per row. */
  skeletons: readonly string[];
  /** Extra classes of the error and loading boxes (e.g. padding). */
  className?: string;
  /** What shows once the voices and models are there. */
  children: ReactNode;
}

/**
 * The speech pages' voices-and-models gate: an error with "Try again", skeletons while loading, then the
 * controls that need the catalogue.
 */
export function CatalogueState({
  failed,
  pending,
  onRetry,
  skeletons,
  className = '',
  children,
}: CatalogueStateProps) {
  if (failed)
    return (
      <div className={`flex flex-col items-start gap-3 text-sm ${className}`}>
        <p className="text-danger">The voices and models could not be loaded.</p>
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Try again
        </Button>
      </div>
    );
  if (pending)
    return (
      <div className={`flex flex-col gap-4 ${className}`} aria-busy="true">
        {skeletons.map((classes, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholder rows
          <Skeleton key={index} className={classes} />
        ))}
      </div>
    );
  return children;
}
