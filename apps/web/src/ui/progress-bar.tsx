import { clsx } from 'clsx';

export interface ProgressBarProps {
  /** The bar's accessible name. */
  label: string;
  /** 0–1; null while the share done is not known (the bar then pulses). */
  value: number | null;
  className?: string;
}

/** A horizontal progress bar, announced as a progressbar with its percentage. */
export function ProgressBar({ label, value, className }: ProgressBarProps) {
  const percent = value === null ? null : Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      aria-valuetext={percent === null ? 'In progress' : `${percent} %`}
      className={clsx(
        'h-2 w-full overflow-hidden rounded-full bg-subtle ring-1 ring-line ring-inset',
        className,
      )}
    >
      <div
        className={clsx(
          'h-full rounded-full bg-accent transition-[width] duration-300 ease-out',
          percent === null && 'w-1/3 motion-safe:animate-pulse',
        )}
        style={percent === null ? undefined : { width: `${percent}%` }}
      />
    </div>
  );
}
