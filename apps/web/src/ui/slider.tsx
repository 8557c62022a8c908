import { clsx } from 'clsx';
import { type ReactNode, useId, useState } from 'react';

/** history/voices §5 "Slider" defaults. */
export const sliderDefaults = { min: 0, max: 1, step: 0.005 } as const;

/** The thumb tooltip's text: the value as a percent (history/voices §5). */
export function formatSliderPercent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

/** Whether a value sits in a warned range: under `warnUntil` or over `warnFrom` (history/voices §5). */
export function isSliderWarned(
  value: number,
  thresholds: { warnUntil?: number; warnFrom?: number },
): boolean {
  return (
    (thresholds.warnUntil !== undefined && value < thresholds.warnUntil) ||
    (thresholds.warnFrom !== undefined && value > thresholds.warnFrom)
  );
}

export interface SliderProps {
  label: string;
  value: number;
  onValueChange: (value: number) => void;
  min?: number;
  max?: number;
  step?: number;
  /** Values below this are warned about. */
  warnUntil?: number;
  /** Values above this are warned about. */
  warnFrom?: number;
  /** What the warning says, shown under the slider while the value is in a warned range. */
  warning?: ReactNode;
  /** Words at the two ends of the track, e.g. "More variable" / "More stable". */
  minLabel?: string;
  maxLabel?: string;
  disabled?: boolean;
  /** A line under the slider that describes it (e.g. why it is disabled), read with it by screen readers. */
  hint?: ReactNode;
}

/**
 * A labelled slider (history/voices §5): native range input, so arrows, Page Up/Down, Home and End work;
 * a tooltip over the thumb shows the value as a percent while it is hovered, focused or dragged.
 */
export function Slider({
  label,
  value,
  onValueChange,
  min = sliderDefaults.min,
  max = sliderDefaults.max,
  step = sliderDefaults.step,
  warnUntil,
  warnFrom,
  warning,
  minLabel,
  maxLabel,
  disabled = false,
  hint,
}: SliderProps) {
  const id = useId();
  const [active, setActive] = useState({ hover: false, focus: false });
  const warned = isSliderWarned(value, { warnUntil, warnFrom });
  const fraction = max > min ? (Math.min(max, Math.max(min, value)) - min) / (max - min) : 0;
  const percent = formatSliderPercent(value);
  // The thumb (1rem) travels from 0.5rem to 100% − 0.5rem of the track.
  const thumbLeft = `calc(${fraction * 100}% + ${0.5 - fraction}rem)`;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          {label}
        </label>
        <span className={clsx('text-xs tabular-nums', warned ? 'text-warning' : 'text-fg-muted')}>
          {percent}
        </span>
      </div>
      <div
        className="relative"
        onPointerEnter={() => setActive((a) => ({ ...a, hover: true }))}
        onPointerLeave={() => setActive((a) => ({ ...a, hover: false }))}
      >
        <input
          id={id}
          type="range"
          min={min}
          max={max}
          step={step}
          value={value}
          disabled={disabled}
          aria-valuetext={percent}
          aria-describedby={
            [hint ? `${id}-hint` : '', warned && warning ? `${id}-warning` : ''].filter(Boolean).join(' ') ||
            undefined
          }
          onChange={(event) => onValueChange(Number(event.target.value))}
          onFocus={() => setActive((a) => ({ ...a, focus: true }))}
          onBlur={() => setActive((a) => ({ ...a, focus: false }))}
          className={clsx(
            'h-5 w-full cursor-pointer disabled:cursor-not-allowed disabled:opacity-60',
            warned ? 'accent-warning' : 'accent-accent',
          )}
        />
        {(active.hover || active.focus) && !disabled && (
          <span
            role="tooltip"
            className="pointer-events-none absolute -top-8 -translate-x-1/2 rounded-md bg-fg px-2 py-1 text-xs font-medium text-bg tabular-nums shadow-md"
            style={{ left: thumbLeft }}
          >
            {percent}
          </span>
        )}
      </div>
      {(minLabel || maxLabel) && (
        <div className="flex justify-between text-xs text-fg-muted">
          <span>{minLabel}</span>
          <span>{maxLabel}</span>
        </div>
      )}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-fg-muted">
          {hint}
        </p>
      )}
      {warned && warning && (
        <p id={`${id}-warning`} className="text-xs text-warning">
          {warning}
        </p>
      )}
    </div>
  );
}
