import { clsx } from 'clsx';
import { CheckIcon } from '../../../ui/icons';
import { PVC_STEPS, type PvcStep, pvcStepTitles } from '../pvc-rules';

export interface PvcStepsNavProps {
  current: PvcStep;
  /** Steps already done. */
  done: ReadonlySet<PvcStep>;
  /** Steps that can be opened now. */
  reachable: ReadonlySet<PvcStep>;
  onOpen: (step: PvcStep) => void;
}

/** The steps of a professional clone, each done, current or still ahead; reachable ones can be opened. */
export function PvcStepsNav({ current, done, reachable, onOpen }: PvcStepsNavProps) {
  return (
    <nav aria-label="Steps">
      <ol className="flex flex-wrap gap-2">
        {PVC_STEPS.map((step, index) => {
          const isCurrent = step === current;
          const isDone = done.has(step);
          const canOpen = reachable.has(step) && !isCurrent;
          const content = (
            <>
              <span
                aria-hidden="true"
                className={clsx(
                  'flex size-5 shrink-0 items-center justify-center rounded-full text-[11px] font-semibold',
                  isCurrent
                    ? 'bg-fg text-bg'
                    : isDone
                      ? 'bg-success-soft text-success'
                      : 'bg-subtle text-fg-muted ring-1 ring-line ring-inset',
                )}
              >
                {isDone && !isCurrent ? <CheckIcon /> : index + 1}
              </span>
              {pvcStepTitles[step]}
              {isDone && !isCurrent && <span className="sr-only">(done)</span>}
            </>
          );
          const classes = clsx(
            'flex items-center gap-2 rounded-full px-3 py-1.5 text-sm',
            isCurrent ? 'bg-accent/10 font-medium text-fg ring-1 ring-accent/30' : 'text-fg-muted',
          );
          return (
            <li key={step}>
              {canOpen ? (
                <button
                  type="button"
                  className={clsx(classes, 'cursor-pointer hover:bg-subtle hover:text-fg')}
                  onClick={() => onOpen(step)}
                >
                  {content}
                </button>
              ) : (
                <span className={classes} aria-current={isCurrent ? 'step' : undefined}>
                  {content}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
