import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { Button } from '../../../ui/button';
import { SpinnerIcon } from '../../../ui/icons';
import { SkeletonRow } from '../../../ui/skeleton';

const voiceListClasses =
  'flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface';

/** A list of voice rows; `refreshing` dims it while the next search's answer loads. */
export function VoiceList({
  label,
  refreshing,
  children,
}: {
  label: string;
  refreshing: boolean;
  children: ReactNode;
}) {
  return (
    <ul
      aria-label={label}
      aria-busy={refreshing || undefined}
      className={clsx(voiceListClasses, 'transition-opacity', refreshing && 'opacity-60')}
    >
      {children}
    </ul>
  );
}

/** Rows of grey blocks while a voice list loads. */
export function VoiceListSkeleton({ label, rows = 4 }: { label: string; rows?: number }) {
  return (
    <ul aria-busy="true" aria-label={label} className={voiceListClasses}>
      {Array.from({ length: rows }, (_, row) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity, never reordered.
        <SkeletonRow key={row} lineWidths={['w-1/3', 'w-2/3']} />
      ))}
    </ul>
  );
}

/** A list with nothing in it: what it would hold, and what to do. */
export function EmptyState({
  title,
  children,
  actions,
}: {
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-line px-6 py-12 text-center">
      <h2 className="text-base font-semibold">{title}</h2>
      {children && <div className="max-w-md text-sm text-fg-muted">{children}</div>}
      {actions && <div className="mt-1 flex flex-wrap justify-center gap-2">{actions}</div>}
    </div>
  );
}

/** "Load more" under a list with more pages. */
export function LoadMoreButton({ loading, onLoadMore }: { loading: boolean; onLoadMore: () => void }) {
  return (
    <div className="flex justify-center">
      <Button variant="secondary" disabled={loading} aria-busy={loading} onClick={onLoadMore}>
        {loading && <SpinnerIcon className="motion-safe:animate-spin" />}
        {loading ? 'Loading…' : 'Load more'}
      </Button>
    </div>
  );
}
