import { clsx } from 'clsx';
import type { HTMLAttributes } from 'react';

/** A grey placeholder block shown while content loads; it pulses only when motion is welcome. */
export function Skeleton({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      aria-hidden="true"
      className={clsx('rounded-md bg-subtle motion-safe:animate-pulse', className)}
      {...props}
    />
  );
}
