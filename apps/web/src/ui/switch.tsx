import { clsx } from 'clsx';
import { type ReactNode, useId } from 'react';

export interface SwitchProps {
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** A short note under the label, read with the switch. */
  description?: ReactNode;
  disabled?: boolean;
  className?: string;
}

/**
 * An on/off switch: a native checkbox with the switch role, so Space toggles it, a form can hold it and
 * assistive technology reads "switch, on". The label sits on the left, the track on the right.
 */
export function Switch({ label, checked, onCheckedChange, description, disabled, className }: SwitchProps) {
  const id = useId();
  return (
    <div className={clsx('flex flex-col gap-1', className)}>
      <label
        htmlFor={id}
        className={clsx(
          'flex items-center justify-between gap-3 text-sm font-medium',
          disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer',
        )}
      >
        {label}
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={checked}
          aria-checked={checked}
          disabled={disabled}
          aria-describedby={description ? `${id}-note` : undefined}
          onChange={(event) => onCheckedChange(event.target.checked)}
          className={clsx(
            'relative h-5 w-9 shrink-0 cursor-pointer appearance-none rounded-full bg-line transition-colors disabled:cursor-not-allowed',
            'before:absolute before:top-0.5 before:left-0.5 before:size-4 before:rounded-full before:bg-surface before:shadow-xs before:transition-transform',
            'checked:bg-fg checked:before:translate-x-4',
            'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
          )}
        />
      </label>
      {description && (
        <p id={`${id}-note`} className="text-xs text-fg-muted">
          {description}
        </p>
      )}
    </div>
  );
}
