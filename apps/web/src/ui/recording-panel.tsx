import { clsx } from 'clsx';
import { formatClipDuration } from '../lib/recording';
import { Button } from './button';

export interface RecordingPanelProps {
  /** Seconds recorded so far. */
  elapsed: number;
  /** The input level, 0–1. */
  level: number;
  /** The microphone has not answered yet. */
  starting: boolean;
  /** The limit the recorder stops at, shown beside the time. */
  maxSeconds: number;
  onStop: () => void;
  /** The Stop button's id, for moving the focus to it. */
  stopId?: string;
  className?: string;
}

/** A take being recorded: its time against the limit, the input level, and Stop. */
export function RecordingPanel({
  elapsed,
  level,
  starting,
  maxSeconds,
  onStop,
  stopId,
  className,
}: RecordingPanelProps) {
  return (
    <div className={clsx('flex flex-col items-center', className)}>
      <p className="flex items-center gap-2 text-sm font-medium text-fg" aria-live="polite">
        <span
          aria-hidden="true"
          className={clsx('size-2.5 rounded-full bg-danger', !starting && 'motion-safe:animate-pulse')}
        />
        {starting ? 'Waiting for the microphone…' : 'Recording'}
      </p>
      <p role="timer" className="text-3xl font-semibold tabular-nums" aria-label="Time recorded">
        {formatClipDuration(Math.floor(elapsed))}
        <span className="text-base font-normal text-fg-muted"> / {formatClipDuration(maxSeconds)}</span>
      </p>
      <div aria-hidden="true" className="h-1.5 w-48 overflow-hidden rounded-full bg-line">
        <div
          className="h-full rounded-full bg-accent transition-[width] duration-75"
          style={{ width: `${Math.round(level * 100)}%` }}
        />
      </div>
      <Button id={stopId} onClick={onStop} disabled={starting}>
        <span aria-hidden="true" className="size-2.5 rounded-sm bg-current" />
        Stop
      </Button>
    </div>
  );
}
