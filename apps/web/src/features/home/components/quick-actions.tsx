import { Link } from 'react-router';
import { navIconOf } from '../../../ui/nav-icons';
import { listQuickActions } from '../home-rules';

/** Home's quick actions: a card per built product, its icon, name and what it does. */
export function QuickActions() {
  const actions = listQuickActions();
  return (
    <section aria-labelledby="quick-actions-title" className="flex flex-col gap-3">
      <h2 id="quick-actions-title" className="sr-only">
        Quick actions
      </h2>
      <ul className="grid grid-cols-2 gap-2 sm:gap-3 xl:grid-cols-3">
        {actions.map((action) => {
          const Icon = navIconOf(action.path);
          return (
            <li key={action.path} className="min-w-0">
              <Link
                to={action.path}
                className="group flex h-full min-w-0 items-center gap-3 rounded-xl border border-line bg-surface p-3 sm:items-start sm:p-4 shadow-xs transition-colors hover:border-fg/20 hover:bg-subtle/60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
              >
                <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-subtle text-lg sm:size-10 sm:text-xl text-fg transition-colors group-hover:bg-bg">
                  <Icon />
                </span>
                <span className="flex min-w-0 flex-col gap-0.5">
                  <span className="text-sm font-semibold break-words text-fg">{action.title}</span>
                  {action.description && (
                    <span className="hidden text-sm text-fg-muted sm:block">{action.description}</span>
                  )}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
