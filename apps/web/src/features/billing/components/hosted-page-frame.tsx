import type { ReactNode } from 'react';
import { Badge } from '../../../ui/badge';

/** The frame of the test-mode provider's pages: whose page it is, and that no real money moves. */
export function HostedPageFrame({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div
      className={
        wide
          ? 'mx-auto flex max-w-4xl flex-col gap-6 px-4 py-10 sm:px-6'
          : 'mx-auto flex max-w-xl flex-col gap-6 px-4 py-10 sm:px-6'
      }
    >
      <div className="flex items-center justify-between gap-3 text-sm text-fg-muted">
        <span className="font-medium text-fg">Parla Payments</span>
        <Badge tone="warning" dot>
          Test mode
        </Badge>
      </div>
      {children}
    </div>
  );
}
