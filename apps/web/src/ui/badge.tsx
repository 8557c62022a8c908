import { clsx } from 'clsx';
import type { HTMLAttributes } from 'react';

export type BadgeTone = 'neutral' | 'accent' | 'success' | 'danger' | 'warning';

const toneClasses: Record<BadgeTone, string> = {
  neutral: 'bg-subtle text-fg-muted ring-line',
  accent: 'bg-accent/10 text-accent ring-accent/30',
  success: 'bg-success-soft text-success ring-success/25',
  danger: 'bg-danger-soft text-danger ring-danger/25',
  warning: 'bg-warning-soft text-warning ring-warning/25',
};

const dotClasses: Record<BadgeTone, string> = {
  neutral: 'bg-fg-muted',
  accent: 'bg-accent',
  success: 'bg-success',
  danger: 'bg-danger',
  warning: 'bg-warning',
};

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone;
  /** Shows a small dot before the text, so the state does not rest on colour alone. */
  dot?: boolean;
}

/** A small status label. */
export function Badge({ tone = 'neutral', dot = false, className, children, ...props }: BadgeProps) {
  return (
    <span
      className={clsx(
        'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
        toneClasses[tone],
        className,
      )}
      {...props}
    >
      {dot && <span aria-hidden="true" className={clsx('size-1.5 rounded-full', dotClasses[tone])} />}
      {children}
    </span>
  );
}
