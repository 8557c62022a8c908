import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';

/** The workspace pages (accounts §2 "workspace (members, groups, …, security)"), in the order shown. */
const workspacePages: ReadonlyArray<{ path: string; label: string }> = [
  { path: '/app/workspace', label: 'Overview' },
  { path: '/app/workspace/members', label: 'Members' },
  { path: '/app/workspace/groups', label: 'Groups' },
  { path: '/app/workspace/security', label: 'Security' },
];

/** The links between the workspace pages; the current one is marked for assistive technology too. */
export function WorkspaceNav() {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Workspace pages" className="-mx-1 overflow-x-auto px-1">
      <ul className="flex w-max gap-1 rounded-lg border border-line bg-subtle p-1">
        {workspacePages.map((page) => {
          const current = pathname === page.path;
          return (
            <li key={page.path}>
              <Link
                to={page.path}
                aria-current={current ? 'page' : undefined}
                className={clsx(
                  'block rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap transition-colors',
                  current ? 'bg-surface text-fg shadow-xs' : 'text-fg-muted hover:text-fg',
                )}
              >
                {page.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The top of a workspace page: its title, a line about it, actions on the right and the sub-navigation. */
export function WorkspacePageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex max-w-2xl flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          <div className="text-sm text-fg-muted">{description}</div>
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      <WorkspaceNav />
    </header>
  );
}
