import type { OnboardingChecklistItem } from '@parla/contracts';
import { clsx } from 'clsx';
import { Link } from 'react-router';
import { listBuiltRoutes } from '../../../lib/app-paths';
import { Badge } from '../../../ui/badge';
import { ArrowUpRightIcon, CheckCircleIcon } from '../../../ui/icons';
import {
  availableLanding,
  type ChecklistLanding,
  checklistItemGuides,
  checklistProgress,
  itemsOfBuiltProducts,
} from '../checklist-items';

/** The built app paths, for links that must not lead to "Page not found" (the page paths are fixed). */
let builtPaths: ReadonlySet<string> | undefined;
function getBuiltPaths(): ReadonlySet<string> {
  builtPaths ??= new Set(listBuiltRoutes().map((entry) => entry.path));
  return builtPaths;
}

/** The checklist's items that are shown: those whose product is built (issue 18 item 8). */
export function shownChecklistItems<T extends OnboardingChecklistItem>(items: readonly T[]): T[] {
  return itemsOfBuiltProducts(items, getBuiltPaths());
}

function LandingLink({ landing, quiet = false }: { landing: ChecklistLanding; quiet?: boolean }) {
  const className = clsx(
    'inline-flex items-center gap-1 rounded-sm text-sm font-medium hover:underline',
    quiet ? 'text-fg-muted hover:text-fg' : 'text-accent',
  );
  if (landing.serverPage) {
    return (
      <a className={className} href={landing.href}>
        {landing.label}
        <ArrowUpRightIcon aria-hidden="true" />
      </a>
    );
  }
  return (
    <Link className={className} to={landing.href}>
      {landing.label}
    </Link>
  );
}

/** "3 of 7 done" with a progress bar that assistive technology reads as one. */
export function ChecklistProgress({ items }: { items: readonly OnboardingChecklistItem[] }) {
  const { done, total } = checklistProgress(shownChecklistItems(items));
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-fg-muted">
        {done} of {total} done
      </p>
      <div
        role="progressbar"
        aria-label="Onboarding checklist progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${total} steps done`}
        className="h-2 overflow-hidden rounded-full bg-subtle"
      >
        <div
          className="h-full rounded-full bg-accent motion-safe:transition-[width]"
          style={{ width: total ? `${(done / total) * 100}%` : '0%' }}
        />
      </div>
    </div>
  );
}

/**
 * The checklist's items with their state and a link to each landing page (accounts §2). A step whose
 * page is not built is left out rather than shown with a dead link.
 */
export function ChecklistItemsList({
  items,
  compact = false,
}: {
  items: readonly OnboardingChecklistItem[];
  /** One line per item (the home page's widget). */
  compact?: boolean;
}) {
  const built = getBuiltPaths();
  return (
    <ul aria-label="Onboarding checklist" className="flex flex-col divide-y divide-line">
      {shownChecklistItems(items).map((item) => {
        const guide = checklistItemGuides[item.onboarding_checklist_item_id];
        const landing = availableLanding(guide.landing, built);
        const extra = availableLanding(guide.extra, built);
        return (
          <li
            key={item.onboarding_checklist_item_id}
            className={clsx('flex items-start gap-3', compact ? 'py-2.5' : 'py-4')}
          >
            <span
              aria-hidden="true"
              className={clsx(
                'mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full text-base',
                item.is_completed ? 'text-success' : 'border-2 border-line',
              )}
            >
              {item.is_completed && <CheckCircleIcon />}
            </span>
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <div className="flex flex-wrap items-center gap-2">
                <span className={clsx('text-sm font-medium', item.is_completed && 'text-fg-muted')}>
                  {guide.title}
                </span>
                <Badge tone={item.is_completed ? 'success' : 'neutral'}>
                  {item.is_completed ? 'Done' : 'To do'}
                </Badge>
              </div>
              {!compact && <p className="text-sm text-fg-muted">{guide.description}</p>}
              {!item.is_completed && (
                <div className="flex flex-wrap gap-x-4 gap-y-1">
                  {landing && <LandingLink landing={landing} />}
                  {extra && <LandingLink landing={extra} quiet />}
                </div>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
