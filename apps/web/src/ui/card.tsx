import { clsx } from 'clsx';
import type { HTMLAttributes } from 'react';

/** A bordered surface that groups related content. */
export function Card({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return (
    <section className={clsx('rounded-xl border border-line bg-surface shadow-xs', className)} {...props} />
  );
}

/** The top row of a card: its title and, on the right, its actions. */
export function CardHeader({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={clsx('flex items-start justify-between gap-4 border-b border-line px-5 py-4', className)}
      {...props}
    />
  );
}

/** The body of a card. */
export function CardContent({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={clsx('px-5 py-4', className)} {...props} />;
}
