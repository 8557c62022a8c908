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

/** A list row while it loads: a round avatar beside a line and a shorter one, of the given widths. */
export function SkeletonRow({
  lineWidths,
  className,
}: {
  /** Tailwind width classes of the first and second line. */
  lineWidths: [string, string];
  className?: string;
}) {
  return (
    <li className={clsx('flex gap-3 px-5 py-4', className)}>
      <Skeleton className="size-9 shrink-0 rounded-full" />
      <div className="flex flex-1 flex-col gap-2">
        <Skeleton className={clsx('h-4', lineWidths[0])} />
        <Skeleton className={clsx('h-3', lineWidths[1])} />
      </div>
    </li>
  );
}
